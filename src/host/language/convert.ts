import * as vscode from 'vscode';
import type { Diagnostic, DiagnosticSeverity, DocumentSymbol, Location } from '../../core/tools/language/port';

/** VS Code's 0-based values as the core's 1-based ones. */

const SEVERITIES: Record<vscode.DiagnosticSeverity, DiagnosticSeverity> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'info',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};

function codeOf(code: vscode.Diagnostic['code']): string | undefined {
  if (code === undefined) return undefined;
  return typeof code === 'object' ? String(code.value) : String(code);
}

export function toDiagnostic(uri: vscode.Uri, d: vscode.Diagnostic): Diagnostic {
  const code = codeOf(d.code);
  return {
    path: uri.fsPath,
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
    endLine: d.range.end.line + 1,
    endColumn: d.range.end.character + 1,
    severity: SEVERITIES[d.severity],
    message: d.message,
    ...(code === undefined ? {} : { code }),
    ...(d.source ? { source: d.source } : {}),
  };
}

export function toLocation(uri: vscode.Uri, range: vscode.Range): Location {
  return {
    path: uri.fsPath,
    line: range.start.line + 1,
    column: range.start.character + 1,
    endLine: range.end.line + 1,
    endColumn: range.end.character + 1,
  };
}

/** A definition provider's answer: Locations or LocationLinks (their name span when given). Only file URIs. */
export function locationsOf(answer: readonly (vscode.Location | vscode.LocationLink)[] | undefined): Location[] {
  return (answer ?? []).flatMap((item) => {
    const [uri, range] = 'targetUri' in item ? [item.targetUri, item.targetSelectionRange ?? item.targetRange] : [item.uri, item.range];
    return uri.scheme === 'file' ? [toLocation(uri, range)] : [];
  });
}

function kindName(kind: vscode.SymbolKind): string {
  return (vscode.SymbolKind[kind] ?? 'symbol').toLowerCase();
}

/** A document symbol provider's answer: a tree of DocumentSymbols or a flat list of SymbolInformation. */
export function symbolsOf(answer: readonly (vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined): DocumentSymbol[] {
  return (answer ?? []).map((item) => {
    const nested = 'children' in item;
    const range = nested ? item.range : item.location.range;
    const at = nested ? item.selectionRange.start : range.start;
    return {
      name: item.name,
      kind: kindName(item.kind),
      line: at.line + 1,
      column: at.character + 1,
      endLine: range.end.line + 1,
      endColumn: range.end.character + 1,
      children: nested ? symbolsOf(item.children) : [],
    };
  });
}
