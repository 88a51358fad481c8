/**
 * Markdown for an answer that is still streaming, in O(length) overall: text up to the last blank
 * line outside a code fence is settled into blocks rendered once; only the tail after it is
 * re-rendered each frame. The finished message is rendered whole once (a list or reference that
 * spans blocks may look split while streaming, never after). Splits depend only on the text, so a
 * reloaded view draws the same blocks.
 */
import { renderMarkdown } from '../shared/markdown';

const FENCE = /^\s{0,3}(```|~~~)/;

export class StreamingMarkdown {
  private settled = 0;
  private fenceOpenAtSettled = false;
  private readonly tail = document.createElement('div');

  constructor(readonly element: HTMLElement) {
    element.append(this.tail);
  }

  update(text: string): void {
    let fenceOpen = this.fenceOpenAtSettled;
    let pos = this.settled;
    for (let nl = text.indexOf('\n', pos); nl >= 0; nl = text.indexOf('\n', pos)) {
      const line = text.slice(pos, nl);
      pos = nl + 1;
      if (FENCE.test(line)) fenceOpen = !fenceOpen;
      if (fenceOpen || line.trim() !== '') continue;
      const block = document.createElement('div');
      // renderMarkdown escapes raw HTML and drops unsafe links: its output is safe to parse.
      block.innerHTML = renderMarkdown(text.slice(this.settled, pos));
      this.tail.before(block);
      this.settled = pos;
      this.fenceOpenAtSettled = false;
    }
    this.tail.innerHTML = renderMarkdown(text.slice(this.settled));
  }
}
