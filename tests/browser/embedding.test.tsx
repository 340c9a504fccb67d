/**
 * Ayah is embedded in school portals, so its CSS must work both ways:
 *  - out: loading `ayah-coach/styles.css` changes nothing about the host page's own elements;
 *  - in: a hostile host stylesheet (`button {…}`, `* { box-sizing: content-box }`, a 20px root font…)
 *    changes nothing about Ayah's components: every computed style of every element matches the same
 *    components rendered in a clean document.
 */
import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import css from '../../src/styles.css?inline';
import {
  AyahRoot,
  Button,
  Dialog,
  DialogContent,
  DialogDescription,
  DialogTitle,
  Field,
  Input,
  PasswordInput,
  PasswordRequirements,
  PasswordStrength,
  Progress,
  Skeleton,
  Textarea,
} from '../../src/ui';

// Tell React that act() is available here, as Testing Library does in its own setup.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const HOSTILE_CSS = `
  html { font-size: 20px; }
  * { box-sizing: content-box; }
  body { font-family: "Comic Sans MS", cursive; color: rgb(128, 0, 128); line-height: 3;
         letter-spacing: 2px; word-spacing: 6px; text-transform: uppercase; text-align: center;
         font-style: italic; font-weight: 700; cursor: crosshair; text-indent: 12px; }
  div { margin: 3px; padding: 2px; border: 1px dotted blue; }
  button { background: rgb(255, 0, 0); color: rgb(255, 255, 0); padding: 30px; margin: 10px;
           border: 5px dashed green; border-radius: 0; font: italic 22px serif; height: 80px;
           width: 300px; text-transform: lowercase; box-shadow: 0 0 10px black; }
  input, textarea { border: 4px solid orange; padding: 12px; font-size: 24px; width: 50px;
                    background: black; color: white; margin: 9px; }
  label { display: block; float: right; font-weight: 900; font-size: 30px; }
  p { margin: 40px; font-size: 25px; }
  ul, li { list-style: square; margin: 20px; padding: 20px; }
  svg { width: 100px; height: 100px; fill: red; }
  span { display: inline-block; padding: 4px; }
  img, svg { filter: grayscale(1); }
  textarea:focus, input:focus { outline: 4px dashed magenta; }
  * { box-sizing: content-box !important; }
`;

/** The host page's own elements, which Ayah's stylesheet must leave alone. */
const HOST_MARKUP = `
  <h1>Portal</h1>
  <p>Welcome to <a href="#x">the portal</a>, <strong>student</strong>.</p>
  <ul><li>One</li><li>Two</li></ul>
  <button type="button">Host button</button>
  <input aria-label="host input" placeholder="host" />
  <table><tr><td>cell</td></tr></table>
  <img alt="" width="10" height="10" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" />
  <hr />
  <code>x</code>
`;

function Fixture({ withDialog = false }: { withDialog?: boolean }) {
  return (
    <AyahRoot data-testid="ayah" style={{ width: 480 }}>
      <div className="ay:flex ay:flex-col ay:gap-4 ay:p-4">
        <Button>Send</Button>
        <Button variant="outline" size="sm">
          Cancel
        </Button>
        <Field
          label="Email"
          description="We never share it."
          error="Please enter a valid email address"
        >
          <Input defaultValue="student@example.com" />
        </Field>
        <Field label="Message">
          <Textarea defaultValue="Hello Ayah" rows={3} />
        </Field>
        <Field label="Password">
          <PasswordInput defaultValue="abc" />
        </Field>
        <PasswordStrength password="abcD1" />
        <PasswordRequirements password="abcD1" />
        <Progress value={60} aria-label="Math progress" />
        <Skeleton className="ay:h-4 ay:w-32" />
      </div>
      {withDialog && (
        <Dialog open>
          <DialogContent>
            <DialogTitle>Rename chat</DialogTitle>
            <DialogDescription>Give this conversation a new name.</DialogDescription>
            <Button>Save</Button>
          </DialogContent>
        </Dialog>
      )}
    </AyahRoot>
  );
}

function addStyle(doc: Document, text: string): HTMLStyleElement {
  const style = doc.createElement('style');
  style.textContent = text;
  doc.head.append(style);
  return style;
}

/** Every computed property of an element (custom properties included), as a plain record. */
function computed(el: Element): Record<string, string> {
  const style = el.ownerDocument.defaultView!.getComputedStyle(el);
  const out: Record<string, string> = {};
  for (let i = 0; i < style.length; i++) {
    const name = style.item(i);
    out[name] = style.getPropertyValue(name);
  }
  return out;
}

function snapshot(root: Element): Record<string, string>[] {
  return [root, ...root.querySelectorAll('*')].map(computed);
}

/** Property-by-property differences between two snapshots of the same tree. */
function differences(a: Record<string, string>[], b: Record<string, string>[], nodes: Element[]) {
  const out: string[] = [];
  a.forEach((before, i) => {
    const after = b[i]!;
    for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
      if (before[name] !== after[name]) {
        const node = nodes[i]!;
        const what = `${node.tagName.toLowerCase()}${node.getAttribute('data-slot') ? `[${node.getAttribute('data-slot')}]` : ''}`;
        out.push(`${what} ${name}: ${before[name]} → ${after[name]}`);
      }
    }
  });
  return out;
}

async function mount(container: Element, node: ReactNode): Promise<Root> {
  const root = createRoot(container);
  await act(async () => root.render(node));
  return root;
}

describe('the stylesheet, embedded in a hostile page', () => {
  const roots: Root[] = [];
  let host: HTMLDivElement;
  let hostile: HTMLStyleElement;
  let iframe: HTMLIFrameElement;

  beforeAll(() => {
    hostile = addStyle(document, HOSTILE_CSS);
    host = document.createElement('div');
    host.id = 'host-content';
    host.innerHTML = HOST_MARKUP;
    document.body.append(host);
  });

  afterAll(async () => {
    for (const root of roots) await act(async () => root.unmount());
    host.remove();
    hostile.remove();
    iframe?.remove();
  });

  test("loading it leaves the host page's own elements exactly as they were", async () => {
    const nodes = [document.documentElement, document.body, host, ...host.querySelectorAll('*')];
    const before = nodes.map(computed);
    const ours = addStyle(document, css);
    try {
      const after = nodes.map(computed);
      // Only our own namespaced variables may appear (on :root, where the theme is declared).
      const changed = differences(before, after, nodes).filter((d) => !/ --ay-[\w-]+:/.test(d));
      expect(changed).toEqual([]);
      expect(
        getComputedStyle(document.documentElement).getPropertyValue('--ay-color-primary'),
      ).not.toBe('');
    } finally {
      ours.remove();
    }
  });

  test('a hostile host stylesheet changes nothing about the components', async () => {
    // Reference: the same components in a clean document with only our stylesheet.
    iframe = document.createElement('iframe');
    iframe.style.cssText = 'width: 800px; height: 1200px; border: 0';
    document.body.append(iframe);
    const clean = iframe.contentDocument!;
    clean.open();
    // Same language as the host document: Chromium derives a computed -webkit-locale from it.
    clean.write(
      `<!doctype html><html lang="${document.documentElement.lang}"><head></head><body></body></html>`,
    );
    clean.close();
    addStyle(clean, css);
    const cleanMount = clean.createElement('div');
    clean.body.append(cleanMount);
    roots.push(await mount(cleanMount, <Fixture />));

    // Under test: the hostile page, with our stylesheet loaded after the host's (the usual order) …
    const ours = addStyle(document, css);
    const hostileMount = document.createElement('div');
    hostileMount.style.cssText = 'margin: 0; padding: 0; border: 0; width: 800px';
    document.body.append(hostileMount);
    roots.push(await mount(hostileMount, <Fixture />));

    const cleanRoot = clean.querySelector('[data-testid="ayah"]')!;
    const hostileRoot = document.querySelector('#host-content ~ div [data-testid="ayah"]')!;
    const cleanNodes = [cleanRoot, ...cleanRoot.querySelectorAll('*')];
    const hostileNodes = [hostileRoot, ...hostileRoot.querySelectorAll('*')];
    expect(hostileNodes.length).toBe(cleanNodes.length);
    expect(hostileNodes.length).toBeGreaterThan(30);

    // … and before it (a portal may load its own CSS last): the result must not depend on order.
    for (const order of ['ours-last', 'ours-first'] as const) {
      if (order === 'ours-first') document.head.prepend(ours);
      const diff = differences(snapshot(cleanRoot), snapshot(hostileRoot), hostileNodes);
      expect(diff, order).toEqual([]);
    }
    // Sanity: the hostile rules really apply to the host's own button.
    const hostButton = host.querySelector('button')!;
    expect(getComputedStyle(hostButton).backgroundColor).toBe('rgb(255, 0, 0)');
    expect(getComputedStyle(hostileRoot.querySelector('button')!).backgroundColor).not.toBe(
      'rgb(255, 0, 0)',
    );
    ours.remove();
  });

  test('a dialog portalled to the host body keeps our styles, and nothing else', async () => {
    const ours = addStyle(document, css);
    const mountPoint = document.createElement('div');
    document.body.append(mountPoint);
    roots.push(await mount(mountPoint, <Fixture withDialog />));
    const dialog = document.querySelector<HTMLElement>('[role="dialog"]')!;
    expect(dialog).not.toBeNull();
    expect(dialog.closest('.ayah')).not.toBeNull();
    const style = getComputedStyle(dialog);
    expect(style.boxSizing).toBe('border-box');
    expect(style.textTransform).toBe('none');
    expect(style.fontFamily).not.toContain('Comic Sans');
    const save = [...dialog.querySelectorAll('button')].find((b) => b.textContent === 'Save')!;
    const saveStyle = getComputedStyle(save);
    expect(saveStyle.backgroundColor).not.toBe('rgb(255, 0, 0)');
    expect(saveStyle.fontStyle).toBe('normal');
    expect(saveStyle.height).toBe('40px');
    ours.remove();
  });
});

describe('themes', () => {
  test('data-theme picks the scheme, and a portal re-themes by setting a variable', async () => {
    const ours = addStyle(document, css);
    const mountPoint = document.createElement('div');
    document.body.append(mountPoint);
    const root = await mount(
      mountPoint,
      <>
        <AyahRoot data-testid="light">light</AyahRoot>
        <AyahRoot data-testid="dark" theme="dark">
          dark
        </AyahRoot>
        <AyahRoot data-testid="custom" style={{ '--ay-color-background': 'rgb(1, 2, 3)' } as never}>
          custom
        </AyahRoot>
      </>,
    );
    const background = (id: string) =>
      getComputedStyle(document.querySelector(`[data-testid="${id}"]`)!).backgroundColor;
    expect(background('light')).toBe('rgb(255, 255, 255)');
    expect(background('dark')).toBe('rgb(11, 17, 32)');
    expect(getComputedStyle(document.querySelector('[data-testid="dark"]')!).colorScheme).toBe(
      'dark',
    );
    expect(background('custom')).toBe('rgb(1, 2, 3)');
    await act(async () => root.unmount());
    mountPoint.remove();
    ours.remove();
  });
});
