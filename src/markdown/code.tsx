import { useEffect, useRef, useState } from 'react';

import { cn } from '../lib/cn';
import { Button } from '../ui/button';
import { CheckIcon, createIcon } from '../ui/icons';
import { useScrollable } from './scroll';

/** How long the 'Copied' confirmation stays, in milliseconds. */
const COPIED_FOR = 2000;

type CopyState = 'idle' | 'copied' | 'failed';

const LABELS: Record<CopyState, string> = { idle: 'Copy', copied: 'Copied', failed: 'Copy failed' };

/** A fenced code block: its language, a copy button, and the code, scrolling sideways when wide. */
export function CodeBlock({ language, code }: { language: string | undefined; code: string }) {
  const [attach, tabIndex] = useScrollable<HTMLPreElement>();
  return (
    <div
      data-slot="code-block"
      className="ay:my-3 ay:overflow-hidden ay:rounded-md ay:border ay:border-border ay:bg-muted"
    >
      <div className="ay:flex ay:items-center ay:justify-between ay:gap-2 ay:border-b ay:border-border ay:py-1 ay:ps-3 ay:pe-1 ay:text-xs ay:text-muted-foreground">
        <span data-slot="code-language">{language ?? 'text'}</span>
        <CopyButton code={code} />
      </div>
      <pre
        ref={attach}
        tabIndex={tabIndex}
        className="ay:overflow-x-auto ay:p-3 ay:text-sm ay:leading-relaxed ay:focus-visible:outline-2 ay:focus-visible:outline-ring"
      >
        {/* As wide as its longest line, so the scroll check sees the code grow. */}
        <code className={cn('ay:block ay:w-max ay:min-w-full', language && `language-${language}`)}>
          {code}
        </code>
      </pre>
    </div>
  );
}

function CopyButton({ code }: { code: string }) {
  const [state, setState] = useState<CopyState>('idle');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function copy() {
    const copied = await writeClipboard(code);
    setState(copied ? 'copied' : 'failed');
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setState('idle'), COPIED_FOR);
  }

  return (
    <>
      {/* The name says what is copied; the visible word is part of it (WCAG 2.5.3). */}
      <Button
        variant="ghost"
        size="sm"
        className="ay:h-7 ay:px-2"
        aria-label={state === 'idle' ? 'Copy code' : LABELS[state]}
        onClick={() => void copy()}
      >
        {state === 'copied' ? <CheckIcon /> : <CopyIcon />}
        {LABELS[state]}
      </Button>
      <span role="status" className="ay:sr-only">
        {state === 'idle' ? '' : LABELS[state]}
      </span>
    </>
  );
}

/** Copies through the Clipboard API, or the older selection route where it is missing or refused. */
async function writeClipboard(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.cssText = 'position:fixed;top:0;left:0;opacity:0';
    document.body.append(area);
    area.select();
    try {
      return document.execCommand('copy');
    } catch {
      return false;
    } finally {
      area.remove();
    }
  }
}

const CopyIcon = createIcon(
  'CopyIcon',
  <>
    <rect x="9" y="9" width="13" height="13" rx="2" />
    <path d="M5 15H4a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2h9a2 2 0 0 1 2 2v1" />
  </>,
);
