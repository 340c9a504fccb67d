import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { apiError, fakeAuthAdapter, rejects, user as student } from '../../../fakes/auth';
import { Onboarding } from '../../../src/auth/onboarding/Onboarding';
import { AUTH_MESSAGES } from '../../../src/lib/messages';
import { findToast } from '../../support/toasts';
import { clearToasts, renderWithToasts } from '../render';

afterEach(clearToasts);

describe('<Onboarding>', () => {
  it('walks the three steps by keyboard, picks subjects and completes', async () => {
    const onDone = vi.fn();
    const adapter = fakeAuthAdapter();
    const { user } = renderWithToasts(<Onboarding adapter={adapter} onDone={onDone} name="Ada" />);
    expect(screen.getByText('Step 1 of 3')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Welcome to Ayah, Ada!' })).toBeInTheDocument();
    // Issue 25 item 3: no promise the offline practice helper cannot keep.
    const promise = screen.getByText(/^Ayah is your learning coach/);
    expect(promise).toHaveTextContent('works through maths with you one step at a time');
    expect(promise).toHaveTextContent(
      'Where your school has connected the full AI tutor, it explains science, history and English too.',
    );

    await user.tab();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('heading', { name: 'What would you like to learn?' })).toHaveFocus();
    expect(screen.getByText('Step 2 of 3')).toBeInTheDocument();
    const group = screen.getByRole('group', {
      name: 'Pick the subjects you are interested in. You can change them any time.',
    });
    expect(group).toBeInTheDocument();
    await user.tab();
    await user.keyboard(' ');
    await user.click(screen.getByRole('checkbox', { name: 'History' }));
    expect(screen.getByRole('checkbox', { name: 'Math' })).toBeChecked();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('heading', { name: 'How Ayah helps you learn' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Start learning' }));

    await waitFor(() =>
      expect(onDone).toHaveBeenCalledWith({
        subjects: ['math', 'history'],
        user: { ...student, onboarding_completed: true },
      }),
    );
    expect(adapter.calls.map((call) => call.method)).toEqual(['completeOnboarding']);
    expect(screen.getByRole('heading', { name: 'You are all set!' })).toBeInTheDocument();
  });

  it('a failure stays on the last step with a toast', async () => {
    const onDone = vi.fn();
    const { user } = renderWithToasts(
      <Onboarding
        adapter={fakeAuthAdapter({ completeOnboarding: rejects(apiError(500)) })}
        onDone={onDone}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Start learning' }));
    await findToast(AUTH_MESSAGES.onboardingFailed, 'alert');
    expect(screen.getByRole('heading', { name: 'How Ayah helps you learn' })).toBeInTheDocument();
    expect(onDone).not.toHaveBeenCalled();
  });
});
