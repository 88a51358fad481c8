/**
 * The only module that knows the component library.
 *
 * CSP: the toolkit probes `:focus-visible` with a <style> element that carries the nonce of
 * `<meta property="csp-nonce" content="NONCE">`, so the host's page needs that meta tag and
 * `style-src … 'nonce-NONCE'`. @vscode/webview-ui-toolkit is no longer
 * maintained upstream; moving to @vscode-elements/elements means rewriting this file alone, so the
 * views use only these factories and the small interfaces they return.
 */
import {
  provideVSCodeDesignSystem,
  vsCodeButton,
  vsCodeDropdown,
  vsCodeOption,
  vsCodeProgressRing,
  vsCodeTextArea,
} from '@vscode/webview-ui-toolkit';

let registered = false;

/** Defines the custom elements once per page; call before building any view. */
export function registerComponents(): void {
  if (registered) return;
  registered = true;
  provideVSCodeDesignSystem().register(vsCodeButton(), vsCodeDropdown(), vsCodeOption(), vsCodeProgressRing(), vsCodeTextArea());
}

interface ValueElement extends HTMLElement {
  value: string;
}

export interface ButtonOptions {
  /** A codicon name (without the `codicon-` prefix): the button shows only the icon. */
  icon?: string;
  secondary?: boolean;
  testId?: string;
}

/** A button with a label (or an icon with the label as its tooltip and accessible name). */
export function button(label: string, options: ButtonOptions = {}): HTMLElement {
  const element = document.createElement('vscode-button');
  if (options.icon) {
    element.setAttribute('appearance', 'icon');
    element.setAttribute('aria-label', label);
    element.title = label;
    const icon = document.createElement('span');
    icon.className = `codicon codicon-${options.icon}`;
    element.append(icon);
  } else {
    element.setAttribute('appearance', options.secondary ? 'secondary' : 'primary');
    element.textContent = label;
  }
  if (options.testId) element.dataset.testid = options.testId;
  return element;
}

export function setDisabled(element: HTMLElement, disabled: boolean): void {
  element.toggleAttribute('disabled', disabled);
}

export interface TextField {
  element: HTMLElement;
  value: string;
  focus(): void;
}

/** A multi-line text input that grows with its content up to `rows`. */
export function textArea(placeholder: string, rows: number, testId: string): TextField {
  const element = document.createElement('vscode-text-area') as ValueElement;
  element.setAttribute('placeholder', placeholder);
  element.setAttribute('rows', String(rows));
  element.setAttribute('resize', 'vertical');
  element.dataset.testid = testId;
  return {
    element,
    get value() {
      return element.value;
    },
    set value(text: string) {
      element.value = text;
    },
    focus: () => element.focus(),
  };
}

export interface Choice {
  value: string;
  label: string;
}

export interface Select {
  element: HTMLElement;
  readonly value: string;
  /** Replaces the choices, keeping the selected value when it is still one of them. */
  setChoices(choices: readonly Choice[]): void;
  onChange(listener: (value: string) => void): void;
}

export function dropdown(choices: readonly Choice[], testId: string): Select {
  const element = document.createElement('vscode-dropdown') as ValueElement;
  element.dataset.testid = testId;
  let current = choices[0]?.value ?? '';
  let shown = '';
  const select: Select = {
    element,
    get value() {
      return current;
    },
    setChoices(next) {
      const key = JSON.stringify(next);
      if (key === shown) return;
      shown = key;
      if (!next.some((c) => c.value === current)) current = next[0]?.value ?? '';
      element.replaceChildren(
        ...next.map((choice) => {
          const option = document.createElement('vscode-option') as ValueElement;
          option.setAttribute('value', choice.value);
          option.textContent = choice.label;
          if (choice.value === current) option.setAttribute('selected', '');
          return option;
        }),
      );
      element.value = current;
    },
    onChange(listener) {
      element.addEventListener('change', () => {
        current = element.value;
        listener(current);
      });
    },
  };
  select.setChoices(choices);
  return select;
}

/**
 * A count or label in the badge colours. Not the toolkit's vscode-badge: its template sets an
 * inline style attribute, which the webview's CSP (no 'unsafe-inline') blocks.
 */
export function badge(text: string, title?: string): HTMLElement {
  const element = document.createElement('span');
  element.className = 'badge';
  element.textContent = text;
  if (title) element.title = title;
  return element;
}

export function progressRing(): HTMLElement {
  return document.createElement('vscode-progress-ring');
}
