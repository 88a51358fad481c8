import { parse } from '@ast-grep/napi';
import { napiLanguage, type LanguageId } from './languages';
import { SourceLines } from './lines';
import { extractOutline } from './outline/extract';
import { compilePattern, type CompiledPattern } from './pattern';
import type { FileWork, Job, WorkFile } from './protocol';
import { matchRows } from './rows';

/**
 * Parses files and matches or outlines them: what a parse worker does with each batch. Patterns are
 * compiled once per language per job; the main thread has compiled them already, so a language
 * reaching here compiles.
 */
export class FileWorker {
  private readonly patterns = new Map<LanguageId, CompiledPattern>();

  constructor(private readonly job: Job) {}

  run(file: WorkFile): FileWork {
    const root = parse(napiLanguage(file.language), file.text).root();
    if (this.job.kind === 'outline') return { kind: 'outline', symbols: extractOutline(root, file.language) };
    let compiled = this.patterns.get(file.language);
    if (compiled === undefined) {
      compiled = compilePattern(this.job.pattern, file.language);
      this.patterns.set(file.language, compiled);
    }
    const matches: (string[] | null)[] = [];
    const lines = new SourceLines(file.text);
    let rows = 0;
    // findAll visits the tree in pre-order: matches come in source order.
    for (const node of root.findAll(compiled.rule)) {
      if (rows >= this.job.maxRows) break;
      const produced = matchRows(file.display, node, lines, this.job.rewrite);
      if (!Array.isArray(produced)) {
        matches.push(null);
        continue;
      }
      matches.push(produced);
      rows += produced.length;
    }
    return { kind: 'search', matches };
  }
}
