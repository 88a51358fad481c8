import type { OutlineRange, OutlineSymbol } from './types';

export type OutlineItems = 'structure' | 'exports' | 'imports' | 'all';
export type OutlineView = 'digest' | 'names' | 'signatures' | 'expanded';

/** The outline filters; all select top-level entries only (a member never brings in its parent). */
export interface OutlineFilter {
  items: OutlineItems;
  name?: RegExp;
  symbolTypes?: ReadonlySet<string>;
}

/** One output entry as the model reads it; keys in this order. */
export interface OutlineItem {
  name: string;
  type: string;
  signature?: string;
  exported: boolean;
  imported: boolean;
  range: OutlineRange;
  members?: OutlineMember[];
}

export interface OutlineMember {
  name: string;
  type: string;
  signature?: string;
  exported: boolean;
  range: OutlineRange;
}

/**
 * structure: declarations (no imports); exports: exported symbols, re-exports (`pub use`,
 * `export … from`) included; imports: imports and re-exports; all: everything.
 */
function itemsMatch(symbol: OutlineSymbol, items: OutlineItems): boolean {
  switch (items) {
    case 'structure':
      return !symbol.imported;
    case 'exports':
      return symbol.exported;
    case 'imports':
      return symbol.imported;
    case 'all':
      return true;
  }
}

function nameMatches(pattern: RegExp, symbol: OutlineSymbol): boolean {
  // A global or sticky regex keeps state between test() calls; every test starts at 0.
  for (const text of [symbol.name, symbol.signature, symbol.firstLine]) {
    pattern.lastIndex = 0;
    if (pattern.test(text)) return true;
  }
  return false;
}

export function selected(symbol: OutlineSymbol, filter: OutlineFilter): boolean {
  if (!itemsMatch(symbol, filter.items)) return false;
  if (filter.symbolTypes !== undefined && !filter.symbolTypes.has(symbol.type)) return false;
  return filter.name === undefined || nameMatches(filter.name, symbol);
}

/**
 * The entry a view shows. names: name, type, flags and range; signatures: + the signature;
 * digest: + direct members' names, types, flags and ranges; expanded: + members' signatures.
 * `members` is left out when the view shows none or none are selected; `pubMembers` keeps only
 * exported members.
 */
export function itemOf(symbol: OutlineSymbol, view: OutlineView, pubMembers: boolean): OutlineItem {
  const item: OutlineItem = {
    name: symbol.name,
    type: symbol.type,
    ...(view === 'names' ? {} : { signature: symbol.signature }),
    exported: symbol.exported,
    imported: symbol.imported,
    range: symbol.range,
  };
  if (view === 'digest' || view === 'expanded') {
    const members = symbol.members.filter((m) => !pubMembers || m.exported);
    if (members.length > 0) {
      item.members = members.map((m) => ({
        name: m.name,
        type: m.type,
        ...(view === 'expanded' ? { signature: m.signature } : {}),
        exported: m.exported,
        range: m.range,
      }));
    }
  }
  return item;
}
