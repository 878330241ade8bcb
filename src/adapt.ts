/**
 * The panel's adaptive scaling control: minimum and maximum inputs and an Adapt toggle,
 * beside the Scale control. The cluster then grows while tasks queue and stops workers
 * that sit idle, within the bounds; scaling by hand ends it (the server says so in the
 * status's `adaptive`, which this control shows).
 */
import { PanelModel } from './model';
import { IAdaptBounds, IAdaptive } from './types';
import { FormResult, MAX_WORKERS } from './view';

function whole(text: string, name: string): FormResult<number> {
  const t = text.trim();
  const n = Number(t);
  if (t === '' || !Number.isInteger(n) || n < 1 || n > MAX_WORKERS) {
    const got = t === '' ? 'nothing' : `'${t}'`;
    return { ok: false, error: `${name} must be a whole number from 1 to ${MAX_WORKERS}, got ${got}` };
  }
  return { ok: true, value: n };
}

/** The bounds of an adapt request, from the two inputs; the error names the input. */
export function parseAdaptForm(minimum: string, maximum: string): FormResult<IAdaptBounds> {
  const low = whole(minimum, 'minimum workers');
  if (!low.ok) {
    return low;
  }
  const high = whole(maximum, 'maximum workers');
  if (!high.ok) {
    return high;
  }
  if (high.value < low.value) {
    return {
      ok: false,
      error: `maximum workers must be at least the minimum (${low.value}), got ${high.value}`
    };
  }
  return { ok: true, value: { minimum: low.value, maximum: high.value } };
}

/** One line on the cluster's adaptive scaling, as the panel shows it. */
export function adaptiveText(adaptive: IAdaptive | null | undefined): string {
  if (!adaptive) {
    return 'fixed size: Adapt grows and shrinks it between the bounds';
  }
  const line = `adapting between ${adaptive.minimum} and ${adaptive.maximum} workers, ` +
    `idle ones stopped after ${adaptive.wait} s`;
  return adaptive.error ? `${line} (last problem: ${adaptive.error})` : line;
}

function input(name: string, label: string): [HTMLLabelElement, HTMLInputElement] {
  const wrapper = document.createElement('label');
  wrapper.className = 'jp-MarsPanel-field';
  wrapper.textContent = label;
  const field = document.createElement('input');
  field.className = 'jp-mod-styled';
  field.name = name;
  field.placeholder = 'workers';
  field.size = 6;
  wrapper.appendChild(field);
  return [wrapper, field];
}

/** Minimum and maximum inputs, the Adapt toggle and a line saying how the cluster scales. */
export class AdaptControl {
  constructor(model: PanelModel) {
    this._model = model;
    const [minLabel, min] = input('adapt_minimum', 'adapt from');
    const [maxLabel, max] = input('adapt_maximum', 'to');
    this._minimum = min;
    this._maximum = max;
    this._toggle.type = 'button';
    this._toggle.className = 'jp-Button jp-mod-styled jp-MarsPanel-button jp-MarsPanel-adapt';
    this._toggle.addEventListener('click', () => void this._clicked());
    for (const field of [min, max]) {
      // Enter applies new bounds while it adapts, or starts adapting
      field.addEventListener('keydown', event => {
        if (event.key === 'Enter') {
          void this._apply();
        }
      });
    }
    const row = document.createElement('div');
    row.className = 'jp-MarsPanel-row';
    row.append(minLabel, maxLabel, this._toggle);
    this._text.className = 'jp-MarsPanel-adaptive';
    this.node.className = 'jp-MarsPanel-adaptControl';
    this.node.append(row, this._text);
    this.render();
  }

  readonly node = document.createElement('div');

  /** Bring the toggle, the inputs and the line up to date with the model. */
  render(): void {
    const status = this._model.status;
    const running = status?.state === 'running';
    const adaptive = running ? status?.adaptive ?? null : null;
    this._adapting = !!adaptive;
    this._toggle.textContent = adaptive ? 'Stop adapting' : 'Adapt';
    this._toggle.setAttribute('aria-pressed', String(!!adaptive));
    this._toggle.title = adaptive
      ? 'Keep the workers that run now and stop adapting'
      : 'Grow the cluster while tasks queue and stop idle workers, between the bounds';
    this._toggle.disabled = !!this._model.busy || !running;
    this._text.textContent = running ? adaptiveText(adaptive) : '';
    this.node.dataset.adapting = String(!!adaptive);
    // the bounds in use, unless the user is editing them
    const bounds = adaptive ? `${adaptive.minimum}:${adaptive.maximum}` : '';
    const editing = [this._minimum, this._maximum].includes(document.activeElement as HTMLInputElement);
    if (adaptive && bounds !== this._shownBounds && !editing) {
      this._minimum.value = String(adaptive.minimum);
      this._maximum.value = String(adaptive.maximum);
    }
    this._shownBounds = bounds;
  }

  private async _clicked(): Promise<void> {
    if (this._adapting) {
      await this._model.adapt(null);
    } else {
      await this._apply();
    }
  }

  private async _apply(): Promise<void> {
    const bounds = parseAdaptForm(this._minimum.value, this._maximum.value);
    if (!bounds.ok) {
      this._model.refuse(bounds.error);
      return;
    }
    await this._model.adapt(bounds.value);
  }

  private _model: PanelModel;
  private _minimum: HTMLInputElement;
  private _maximum: HTMLInputElement;
  private _toggle = document.createElement('button');
  private _text = document.createElement('div');
  private _adapting = false;
  private _shownBounds = '';
}
