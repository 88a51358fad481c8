/** Roles `snapshot -i` keeps: the elements a command can act on. */
const INTERACTIVE_ROLES = new Set([
  'button', 'link', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox', 'listbox', 'option', 'menuitem',
  'menuitemcheckbox', 'menuitemradio', 'tab', 'switch', 'slider', 'spinbutton', 'treeitem', 'gridcell',
]);

const REF_ATTRIBUTE = /\s?\[ref=((?:f\d+)?e\d+)\]/g;
const HAS_REF = /\[ref=(?:f\d+)?e\d+\]/;
const ROLE = /^\s*- ([a-z]+)\b/;

/** `[ref=e12]` → `@e12`, the form the follow-up commands take. */
function rewriteRefs(line: string): string {
  return line.replace(REF_ATTRIBUTE, ' @$1');
}

/**
 * Playwright's AI snapshot (an ARIA tree in YAML with `[ref=eN]` markers) as the tool shows it:
 * refs rewritten to `@eN`; with `interactive`, only elements that take a click, text or choice,
 * one per line without their subtrees.
 */
export function formatSnapshot(aria: string, interactive: boolean): string {
  const lines = aria.split('\n').filter((line) => line.trim() !== '');
  if (!interactive) return lines.map(rewriteRefs).join('\n');
  const kept = lines.filter((line) => {
    const role = ROLE.exec(line)?.[1];
    return role !== undefined && INTERACTIVE_ROLES.has(role) && HAS_REF.test(line);
  });
  return kept.map((line) => rewriteRefs(line.trim()).replace(/:$/, '')).join('\n');
}
