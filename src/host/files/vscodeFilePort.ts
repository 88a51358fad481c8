import { promises as fsp } from 'node:fs';
import * as vscode from 'vscode';
import { NodeFilePort, type FilePort, type MoveOptions, type RemoveOptions, type WriteOptions } from '../../core/fs/filePort';
import { MAX_FILE_BYTES } from '../../core/tools/textDoc';
import { changedRange, documentKeepsBytes, sameBytes } from './roundTrip';

/**
 * The tools' files as the person sees them in VS Code.
 *
 * Reading: a file open in an editor with unsaved changes is that editor's text (as UTF-8; a BOM is
 * never part of a document's text, so a dirty file's BOM is not in the bytes); otherwise the disk.
 *
 * Writing an existing file goes through a `WorkspaceEdit`, so the editor's own undo takes it back:
 * - a dirty document gets the edit on top of the person's unsaved changes and stays unsaved;
 * - a clean (or not yet open) document is edited and saved.
 * A document normalizes line endings to one kind and keeps its encoding and BOM, so the new bytes go
 * through it only when they would come out of it unchanged: valid UTF-8, the BOM the file already
 * has, every line ending the document's own, and a document whose text is the disk's. Otherwise —
 * mixed or different line endings, a BOM change, another encoding, or an editor behind the disk —
 * the core's atomic byte-exact write replaces the file and VS Code reloads the clean document.
 * After a save the disk is compared with the intended bytes: a save participant (format on save,
 * trim trailing whitespace, insert final newline) that changed them is overridden the same way.
 * A dirty document cannot be bypassed without losing the person's changes, so it always takes the
 * edit (its line endings win).
 *
 * A new file is created by a `WorkspaceEdit` file operation carrying the exact bytes (undoable from
 * the explorer). Moves and removals are the Node port's (the destination must not exist); an editor
 * showing the old path then shows it as deleted, keeping any unsaved text, as for any change on disk.
 */
export class VsCodeFilePort implements FilePort {
  constructor(private readonly disk: FilePort = new NodeFilePort()) {}

  async readFile(absPath: string, signal?: AbortSignal): Promise<Uint8Array> {
    const document = openDocument(absPath);
    if (document?.isDirty) return Buffer.from(document.getText(), 'utf8');
    return this.disk.readFile(absPath, signal);
  }

  async writeFile(absPath: string, data: Uint8Array, options: WriteOptions = {}): Promise<void> {
    const uri = vscode.Uri.file(absPath);
    const open = openDocument(absPath);
    const size = await sizeOnDisk(absPath);
    if (size === undefined) return this.create(uri, data, options);
    if (open?.isDirty) return this.editDirty(open, data, options);
    if (size > MAX_FILE_BYTES) return this.disk.writeFile(absPath, data, options);
    const onDisk = await this.disk.readFile(absPath, options.signal);
    const document = open ?? (await vscode.workspace.openTextDocument(uri));
    if (document.isDirty || !documentKeepsBytes(document.getText(), document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n', onDisk, data)) {
      return this.disk.writeFile(absPath, data, options);
    }
    await this.applyText(document, new TextDecoder().decode(data).replace(/^\uFEFF/, ''), options);
    if (!(await document.save())) throw new Error(`VS Code did not save ${absPath}; the edit is in its editor, unsaved. Save or revert it there, then re-read the file.`);
    if (!sameBytes(await this.disk.readFile(absPath), data)) {
      // A save participant changed the text; the tools promise the exact bytes they reported.
      await this.disk.writeFile(absPath, data, { signal: options.signal, within: options.within });
    }
  }

  moveFile(fromAbs: string, toAbs: string, options?: MoveOptions): Promise<void> {
    return this.disk.moveFile(fromAbs, toAbs, options);
  }

  removeFile(absPath: string, options?: RemoveOptions): Promise<void> {
    return this.disk.removeFile(absPath, options);
  }

  private async create(uri: vscode.Uri, data: Uint8Array, options: WriteOptions): Promise<void> {
    const edit = new vscode.WorkspaceEdit();
    edit.createFile(uri, { contents: data, overwrite: false });
    options.signal?.throwIfAborted();
    await options.beforeCommit?.();
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`VS Code refused to create ${uri.fsPath}; check that it does not exist and its folder is writable.`);
  }

  private async editDirty(document: vscode.TextDocument, data: Uint8Array, options: WriteOptions): Promise<void> {
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(data);
    } catch (err) {
      throw new Error(`${document.uri.fsPath} has unsaved changes in an editor and the new content is not UTF-8 text (${String(err)}); save or revert the editor first.`);
    }
    await this.applyText(document, text.replace(/^\uFEFF/, ''), options);
  }

  /** Replaces the part of the document that differs, so the editor keeps its cursor and scroll elsewhere. */
  private async applyText(document: vscode.TextDocument, text: string, options: WriteOptions): Promise<void> {
    const old = document.getText();
    const { start, oldEnd, newEnd } = changedRange(old, text);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, new vscode.Range(document.positionAt(start), document.positionAt(oldEnd)), text.slice(start, newEnd));
    options.signal?.throwIfAborted();
    await options.beforeCommit?.();
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`VS Code refused the edit of ${document.uri.fsPath}; re-read the file and retry.`);
  }
}

/** The open text document of a file on disk, if VS Code has one. */
function openDocument(absPath: string): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((doc) => doc.uri.scheme === 'file' && !doc.isClosed && doc.uri.fsPath === absPath);
}

async function sizeOnDisk(absPath: string): Promise<number | undefined> {
  try {
    return (await fsp.stat(absPath)).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
