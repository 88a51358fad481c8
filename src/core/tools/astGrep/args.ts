import { z } from 'zod';
import { ToolError } from '../errors';
import { LANGUAGE_IDS, isLanguageId, type LanguageId } from './languages';
import * as L from './limits';

/** Every type the bundled outline rules give, for `symbol_type`. */
export const SYMBOL_TYPES = [
  'function', 'method', 'constructor', 'class', 'struct', 'enum', 'enumMember', 'union', 'trait', 'impl', 'interface', 'protocol',
  'extension', 'object', 'typeAlias', 'constant', 'variable', 'field', 'property', 'module', 'macro', 'import',
] as const;

const nullable = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

/** What providers see; every field but `operation` may be null, which means omitted. */
export const astGrepFields = {
  operation: z.enum(['search', 'outline']).optional().describe('search (default) or outline'),
  pattern: nullable(z.string()).describe('search: the code pattern, with $NAME / $$$NAME metavariables'),
  rewrite: nullable(z.string()).describe('search: a replacement template for a read-only preview; files are never written'),
  path: nullable(z.string()).describe('File or folder; default the workspace root'),
  language: nullable(z.string()).describe(`One of ${LANGUAGE_IDS.join(', ')}; inferred from each file's extension when omitted`),
  limit: nullable(z.number().int()).describe(`search: returned lines; outline: top-level entries (default ${L.DEFAULT_LIMIT}, at most ${L.MAX_LIMIT})`),
  items: nullable(z.enum(['structure', 'exports', 'imports', 'all'])).describe('outline: structure (default), exports, imports or all'),
  view: nullable(z.enum(['digest', 'names', 'signatures', 'expanded'])).describe('outline: digest (default), names, signatures or expanded'),
  name: nullable(z.string()).describe('outline: regex over each top-level name, signature and first source line'),
  symbol_type: nullable(z.string()).describe(`outline: comma-separated types (${SYMBOL_TYPES.join(', ')})`),
  pub_members: nullable(z.boolean()).describe('outline: keep only public members (default false)'),
};

export const astGrepInput = z.strictObject(astGrepFields);
export type AstGrepArgs = z.output<typeof astGrepInput>;

const OUTLINE_ONLY = ['items', 'view', 'name', 'symbol_type', 'pub_members'] as const;
const SEARCH_ONLY = ['pattern', 'rewrite'] as const;

export interface SearchArgs {
  operation: 'search';
  pattern: string;
  rewrite: string | undefined;
  path: string | undefined;
  language: LanguageId | undefined;
  limit: number;
}

export interface OutlineArgs {
  operation: 'outline';
  path: string | undefined;
  language: LanguageId | undefined;
  limit: number;
  items: 'structure' | 'exports' | 'imports' | 'all';
  view: 'digest' | 'names' | 'signatures' | 'expanded';
  name: RegExp | undefined;
  symbolTypes: ReadonlySet<string> | undefined;
  pubMembers: boolean;
}

function bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Refuses fields of the other operation, naming them and showing the omit-or-null form. */
function refuseFields(args: AstGrepArgs, operation: 'search' | 'outline', fields: readonly (keyof AstGrepArgs)[]): void {
  const given = fields.filter((field) => args[field] !== undefined && args[field] !== null);
  if (given.length === 0) return;
  const example = JSON.stringify({ operation, ...Object.fromEntries(given.map((field) => [field, null])) });
  const what = given.map((field) => `\`${field}\`=${JSON.stringify(args[field])}`).join(', ');
  throw new ToolError(`ast_grep: operation "${operation}" does not take ${what}; omit ${given.length > 1 ? 'them' : 'it'} or set ${given.length > 1 ? 'them' : 'it'} to null, e.g. ${example}.`);
}

function languageOf(value: string | null | undefined): LanguageId | undefined {
  if (value === null || value === undefined) return undefined;
  if (!isLanguageId(value)) throw new ToolError(`ast_grep: unknown language ${JSON.stringify(value)}; use one of ${LANGUAGE_IDS.join(', ')} (lowercase), or omit language to infer it from each file's extension.`);
  return value;
}

function limitOf(value: number | null | undefined): number {
  if (value === null || value === undefined) return L.DEFAULT_LIMIT;
  if (value < 1 || value > L.MAX_LIMIT) throw new ToolError(`ast_grep: \`limit\` must be 1 to ${L.MAX_LIMIT} (got ${value}); omit it for ${L.DEFAULT_LIMIT}.`);
  return value;
}

function boundedText(field: string, value: string, max: number): string {
  if (bytes(value) > max) throw new ToolError(`ast_grep: \`${field}\` is ${bytes(value)} bytes; at most ${max} bytes are accepted.`);
  return value;
}

/** The `name` filter: a regex (Rust syntax in the seed; JavaScript syntax here, with a leading `(?i)` honoured). */
function nameFilterOf(value: string): RegExp {
  boundedText('name', value, L.MAX_FILTER_BYTES);
  if (value.trim() === '') throw new ToolError('ast_grep: `name` must not be empty; give a regex such as "^parse" or omit it.');
  const insensitive = value.startsWith('(?i)');
  try {
    return new RegExp(insensitive ? value.slice(4) : value, insensitive ? 'iu' : 'u');
  } catch (err) {
    throw new ToolError(`ast_grep: \`name\` is not a valid regex: ${(err as Error).message}.`);
  }
}

function symbolTypesOf(value: string): ReadonlySet<string> {
  boundedText('symbol_type', value, L.MAX_FILTER_BYTES);
  const types = value.split(',').map((t) => t.trim());
  const unknown = types.filter((t) => !(SYMBOL_TYPES as readonly string[]).includes(t));
  if (unknown.length > 0) {
    throw new ToolError(`ast_grep: \`symbol_type\` has unknown type(s) ${unknown.map((t) => JSON.stringify(t)).join(', ')}; use comma-separated lower camel case types from: ${SYMBOL_TYPES.join(', ')}.`);
  }
  return new Set(types);
}

/** Checks the fields of one operation against each other; nothing is read before this passes. */
export function validateArgs(args: AstGrepArgs): SearchArgs | OutlineArgs {
  const operation = args.operation ?? 'search';
  const path = args.path ?? undefined;
  const language = languageOf(args.language);
  const limit = limitOf(args.limit);
  if (operation === 'search') {
    refuseFields(args, 'search', OUTLINE_ONLY);
    const pattern = args.pattern ?? undefined;
    if (pattern === undefined || pattern.trim() === '') {
      throw new ToolError('ast_grep: search needs a nonempty `pattern`, e.g. {"pattern": "console.log($A)"}; for symbols use {"operation": "outline"}.');
    }
    return {
      operation,
      pattern: boundedText('pattern', pattern, L.MAX_PATTERN_BYTES),
      rewrite: args.rewrite === null || args.rewrite === undefined ? undefined : boundedText('rewrite', args.rewrite, L.MAX_PATTERN_BYTES),
      path,
      language,
      limit,
    };
  }
  refuseFields(args, 'outline', SEARCH_ONLY);
  return {
    operation,
    path,
    language,
    limit,
    items: args.items ?? 'structure',
    view: args.view ?? 'digest',
    name: args.name === null || args.name === undefined ? undefined : nameFilterOf(args.name),
    symbolTypes: args.symbol_type === null || args.symbol_type === undefined ? undefined : symbolTypesOf(args.symbol_type),
    pubMembers: args.pub_members ?? false,
  };
}
