/**
 * The in-browser half of bench:stream: streams a reply into one of three renderers (or into none,
 * to time the loop alone), one 3-character update per task, and reports the timings. Driven by
 * run.mjs through `window.bench`.
 */
import '../../src/styles.css';

import { createMathPlugin } from '@streamdown/math';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { Streamdown } from 'streamdown';

import { normalizeMath } from '../../src/lib/math';
import { plainKatexPlugins } from '../../src/markdown/katex';
import { Markdown } from '../../src/markdown/Markdown';
import { loadKatex } from '../../src/markdown/math';
import { MarkdownBlock, markdownRootClass } from '../../src/markdown/render';
import { StreamView } from '../../src/markdown/stream';
import { AyahRoot } from '../../src/ui/root';
import { tutoringReply } from './reply';

export type Renderer = 'naive' | 'streamdown' | 'ours' | 'none';

export interface RunStats {
  renderer: Renderer;
  characters: number;
  updates: number;
  wallMs: number;
  updateMs: number[];
  longTasks: number;
  /** The markup after the last update (see {@link domSignature}). */
  dom: Record<string, string[]>;
}

const STEP = 3;
const streamdownMath = createMathPlugin({ singleDollarTextMath: true });

/**
 * Naive: react-markdown over the whole text on every update, with the same components and plain
 * rehype-katex (not our formula cache, which the DOM check then checks against rehype-katex).
 */
function Naive({ text }: { text: string }) {
  return (
    <div data-slot="markdown" className={markdownRootClass}>
      <MarkdownBlock markdown={normalizeMath(text)} katex={plainKatexPlugins} />
    </div>
  );
}

function view(renderer: Renderer, text: string, streaming: boolean) {
  switch (renderer) {
    case 'none':
      return null;
    case 'naive':
      return <Naive text={text} />;
    case 'ours':
      return <Markdown content={text} streaming={streaming} />;
    case 'streamdown':
      return (
        <Streamdown
          mode={streaming ? 'streaming' : 'static'}
          isAnimating={streaming}
          plugins={{ math: streamdownMath }}
        >
          {text}
        </Streamdown>
      );
  }
}

const channel = new MessageChannel();
let wake = () => {};
channel.port1.onmessage = () => wake();
/** Resolves in a new task (no timer clamping), so each update is a task of its own. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    wake = resolve;
    channel.port2.postMessage(0);
  });
}

const SELECTORS = ['.katex', '.katex-display', 'th', 'td', 'pre'];

/**
 * The outerHTML of every formula, table cell and code block, whitespace collapsed; and the whole
 * rendered reply's markup, under 'markdown'.
 */
function domSignature(root: Element): Record<string, string[]> {
  const normal = (html: string) => html.replace(/\s+/g, ' ').trim();
  const out: Record<string, string[]> = {};
  for (const selector of SELECTORS) {
    out[selector] = [...root.querySelectorAll(selector)].map((el) => normal(el.outerHTML));
  }
  out.markdown = [...root.querySelectorAll('[data-slot="markdown"]')].map((el) =>
    normal(el.innerHTML),
  );
  return out;
}

async function run(renderer: Renderer, units: number): Promise<RunStats> {
  const raw = tutoringReply(units);
  // streamdown does not read bracket notations: it gets the normalised reply, normalised once
  // ahead of time (for free), so it renders the same formulas.
  const text = renderer === 'streamdown' ? normalizeMath(raw) : raw;
  const stage = document.getElementById('stage')!;
  const host = document.createElement('div');
  stage.append(host);
  const root = createRoot(host);
  const render = (prefix: string, streaming: boolean) =>
    flushSync(() =>
      root.render(<AyahRoot style={{ width: 720 }}>{view(renderer, prefix, streaming)}</AyahRoot>),
    );

  let longTasks = 0;
  const observer = new PerformanceObserver((list) => {
    longTasks += list.getEntries().length;
  });
  observer.observe({ type: 'longtask' });
  const updateMs: number[] = [];
  const start = performance.now();
  for (let end = STEP; end < text.length + STEP; end += STEP) {
    await nextTask();
    const t0 = performance.now();
    render(text.slice(0, end), true);
    updateMs.push(performance.now() - t0);
  }
  await nextTask();
  render(text, false);
  await nextTask();
  const wallMs = performance.now() - start;
  // Long-task entries are delivered after the task, and the scroll frames decide their tab stops
  // after layout: give both a moment.
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.disconnect();
  const dom = domSignature(host);
  root.unmount();
  host.remove();
  return {
    renderer,
    characters: text.length,
    updates: updateMs.length,
    wallMs,
    updateMs,
    longTasks,
    dom,
  };
}

/** The DOM signature of one render of the whole reply (what naive shows once streaming is done). */
async function renderOnce(renderer: Renderer, units: number): Promise<Record<string, string[]>> {
  const host = document.createElement('div');
  document.getElementById('stage')!.append(host);
  const root = createRoot(host);
  flushSync(() =>
    root.render(
      <AyahRoot style={{ width: 720 }}>{view(renderer, tutoringReply(units), false)}</AyahRoot>,
    ),
  );
  // Let effects settle (the scroll frames decide their tab stops after layout).
  await new Promise((resolve) => setTimeout(resolve, 50));
  const dom = domSignature(host);
  root.unmount();
  host.remove();
  return dom;
}

/** What each update of a streamed reply asks of ours (see updates.mjs). */
export interface UpdateLabel {
  /** The kind of the unfinished block, by its first line (or 'none'). */
  kind: string;
  /** Its length. */
  tail: number;
  /** Whether it was parsed again, not just given more plain text at its end. */
  reparsed: boolean;
  /** The characters the update added. */
  chunk: string;
}

function labels(units: number): UpdateLabel[] {
  const text = tutoringReply(units);
  const view = new StreamView();
  const out: UpdateLabel[] = [];
  let base: string | null = null;
  for (let end = STEP; end < text.length + STEP; end += STEP) {
    const { tail } = view.update(text.slice(0, end), true);
    const reparsed = tail !== null && tail.base !== base;
    base = tail?.base ?? null;
    out.push({
      kind: tail ? blockKind(tail.base) : 'none',
      tail: tail ? tail.base.length + tail.suffix.length : 0,
      reparsed,
      chunk: text.slice(end - STEP, end),
    });
  }
  return out;
}

function blockKind(source: string): string {
  if (/^#/.test(source)) return 'heading';
  if (/^\|/.test(source)) return 'table';
  if (/^```/.test(source)) return 'code';
  if (/^(\$\$|\\\[)/.test(source)) return 'display';
  if (/^(\d+\.|-) /.test(source)) return 'list';
  if (/^>/.test(source)) return 'quote';
  return 'paragraph';
}

declare global {
  interface Window {
    bench: {
      ready: Promise<void>;
      run: typeof run;
      renderOnce: typeof renderOnce;
      labels: typeof labels;
    };
  }
}

window.bench = { ready: loadKatex().then(() => undefined), run, renderOnce, labels };
