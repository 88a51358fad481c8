import * as vscode from 'vscode';

/** The scheme of the read-only documents that show a proposed text (the right side of a review diff). */
export const PROPOSED_SCHEME = 'magi-proposed';

/**
 * Serves proposed texts as read-only virtual documents. Each review puts its texts under URIs of its
 * own (the review id is in the query), so VS Code never shows a cached text of an earlier review.
 */
export class ProposedContent implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(PROPOSED_SCHEME, this);

  /** A URI that shows `text`, named like `file` so the editor picks its language. */
  put(file: string, reviewId: number, side: 'before' | 'after', text: string): vscode.Uri {
    const uri = vscode.Uri.file(file).with({ scheme: PROPOSED_SCHEME, query: `review=${reviewId}&side=${side}` });
    this.texts.set(uri.toString(), text);
    return uri;
  }

  drop(uris: readonly vscode.Uri[]): void {
    for (const uri of uris) this.texts.delete(uri.toString());
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  dispose(): void {
    this.registration.dispose();
    this.texts.clear();
  }
}
