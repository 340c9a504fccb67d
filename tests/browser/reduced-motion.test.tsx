/**
 * A reader who asks their system for reduced motion (`prefers-reduced-motion: reduce`) sees nothing
 * move: no spinning, bouncing, sliding or growing, now or on the next change. Opacity and colour may
 * still change, so work in progress (a spinner, the typing dots) still shows, fading in place. The
 * same components without that preference do move: the check below finds it, so it can fail.
 */
import { createRoot, type Root } from 'react-dom/client';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { cdp } from 'vitest/browser';

import { TypingIndicator } from '../../src/chat/TypingIndicator';
import css from '../../src/styles.css?inline';
import {
  AyahRoot,
  Button,
  Dialog,
  DialogContent,
  DialogDescription,
  DialogTitle,
  loadToaster,
  Progress,
  Skeleton,
  Spinner,
  toast,
  Toaster,
} from '../../src/ui';

// The components run here on the browser's own clock (animations ending, the toast's timers), as on
// a student's screen: React is not told to expect act(), and the test waits for what it looks at.
const actEnvironment = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };

/** What moves a box on the screen, by a CSS property's name (a transition's) or a keyframe's key. */
const MOVING =
  /^(all|transform|translate|rotate|scale|width|height|top|right|bottom|left|inset|margin)/i;
/** Below a millisecond, a change is instant to the eye (the stylesheet's own floor is 0.01 ms). */
const INSTANT_S = 0.001;

function describeNode(node: Element): string {
  const slot = node.getAttribute('data-slot');
  return `${node.tagName.toLowerCase()}${slot ? `[${slot}]` : ''}`;
}

/**
 * Everything in Ayah's trees that moves or would move: each running animation or transition whose
 * keyframes change a box's place, size or turn, and each element whose transitions would animate one.
 */
function movement(): string[] {
  const found: string[] = [];
  for (const animation of document.getAnimations()) {
    const effect = animation.effect as KeyframeEffect | null;
    const target = effect?.target;
    if (!effect || !target?.closest('.ayah')) continue;
    const { duration } = effect.getComputedTiming();
    if (typeof duration === 'number' && duration / 1000 < INSTANT_S) continue;
    const keys = new Set(effect.getKeyframes().flatMap((frame) => Object.keys(frame)));
    const moving = [...keys].filter((key) => MOVING.test(key));
    if (moving.length > 0) {
      const name =
        animation instanceof CSSAnimation
          ? animation.animationName
          : (animation as CSSTransition).transitionProperty;
      found.push(`${describeNode(target)} ${name}: ${moving.join(', ')}`);
    }
  }
  for (const node of document.querySelectorAll('.ayah, .ayah *')) {
    const style = getComputedStyle(node);
    const durations = style.transitionDuration.split(', ').map((d) => parseFloat(d));
    style.transitionProperty.split(', ').forEach((property, i) => {
      const seconds = durations[i % durations.length]!;
      if (seconds >= INSTANT_S && MOVING.test(property)) {
        found.push(`${describeNode(node)} transition: ${property} ${seconds}s`);
      }
    });
  }
  return found;
}

/** The running, endless animations in Ayah's trees: what shows that work is going on. */
function ongoing(): string[] {
  return document
    .getAnimations()
    .filter((a): a is CSSAnimation => a instanceof CSSAnimation)
    .filter((a) => {
      const target = (a.effect as KeyframeEffect | null)?.target;
      return target?.closest('.ayah') && a.effect!.getComputedTiming().iterations === Infinity;
    })
    .map((a) => `${describeNode((a.effect as KeyframeEffect).target!)} ${a.animationName}`);
}

async function prefer(motion: 'reduce' | 'no-preference') {
  await cdp().send('Emulation.setEmulatedMedia', {
    features: [{ name: 'prefers-reduced-motion', value: motion }],
  });
  expect(matchMedia(`(prefers-reduced-motion: ${motion})`).matches).toBe(true);
}

function Screen({ progress = 40 }: { progress?: number }) {
  return (
    <AyahRoot style={{ width: 480 }}>
      <div className="ay:flex ay:flex-col ay:gap-4 ay:p-4">
        <Button disabled aria-busy="true">
          <Spinner /> Saving
        </Button>
        <TypingIndicator />
        <Progress value={progress} aria-label="Math progress" />
        <Skeleton className="ay:h-4 ay:w-32" />
      </div>
      <Dialog open>
        <DialogContent>
          <DialogTitle>Rename chat</DialogTitle>
          <DialogDescription>Give this conversation a new name.</DialogDescription>
        </DialogContent>
      </Dialog>
      <Toaster />
    </AyahRoot>
  );
}

describe.each(['no-preference', 'reduce'] as const)('prefers-reduced-motion: %s', (motion) => {
  let root: Root | undefined;
  let container: HTMLDivElement | undefined;
  let style: HTMLStyleElement | undefined;

  let wasActEnvironment: boolean | undefined;

  beforeAll(async () => {
    wasActEnvironment = actEnvironment.IS_REACT_ACT_ENVIRONMENT;
    actEnvironment.IS_REACT_ACT_ENVIRONMENT = false;
    await prefer(motion);
    style = document.createElement('style');
    style.textContent = css;
    document.head.append(style);
    container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
    root.render(<Screen />);
    await loadToaster();
    toast.loading('Saving your goal…');
    await vi.waitFor(() => {
      expect(document.querySelector('[data-slot="toast"]')).not.toBeNull();
      expect(document.querySelector('[role="dialog"]')).not.toBeNull();
    });
  });

  // The browser files share this page: its preference and React's flag go back first, whatever
  // the setup got to.
  afterAll(async () => {
    try {
      await prefer('no-preference');
    } finally {
      actEnvironment.IS_REACT_ACT_ENVIRONMENT = wasActEnvironment;
      toast.remove();
      root?.unmount();
      container?.remove();
      style?.remove();
    }
  });

  if (motion === 'no-preference') {
    test('the spinner turns, the dots bounce, the bar grows and a toast slides in', () => {
      const moving = movement().join('\n');
      expect(moving).toMatch(/svg\[spinner\] ay-spin: transform/);
      expect(moving).toMatch(/ay-bounce-dot: transform/);
      expect(moving).toMatch(/div\[progress-indicator\] transition: width/);
      expect(moving).toMatch(/div\[toast\] transition: .*transform/);
    });
  } else {
    test('nothing moves, now or on the next change', async () => {
      expect(movement()).toEqual([]);
      // A new value: the bar takes it at once.
      root!.render(<Screen progress={80} />);
      await vi.waitFor(() =>
        expect(document.querySelector('[role="progressbar"]')).toHaveAttribute(
          'aria-valuenow',
          '80',
        ),
      );
      expect(movement()).toEqual([]);
    });

    test('work in progress still shows, fading in place', () => {
      const now = ongoing();
      expect(now).toContain('svg[spinner] ay-pulse');
      // The three typing dots.
      expect(now.filter((a) => a === 'span ay-pulse')).toHaveLength(3);
      expect(
        now.some((a) => /ay-spin|ay-bounce/.test(a)),
        now.join('\n'),
      ).toBe(false);
    });
  }
});
