import { useActorRef, useSelector } from '@xstate/react';
import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';

import { cn } from '../lib/cn';
import { Button } from '../ui/button';
import { pageTitleClass } from '../ui/page-title';
import { AyahRoot, type Theme } from '../ui/root';
import { accountLogic } from './account.machine';
import { AccountSection, type DeletionSigner } from './AccountSection';
import { archiveLogic } from './archive.machine';
import { DataControlsSection } from './DataControlsSection';
import { passwordLogic } from './password.machine';
import { profileLogic } from './profile.machine';
import { ProfileSection } from './ProfileSection';
import { SecuritySection } from './SecuritySection';
import type { User } from './settings.adapter';
import type { SettingsAdapter } from './settings.adapter';
import { useSettingsNotices } from './use-settings-notices';

export type SettingsSection = 'profile' | 'security' | 'data' | 'wallet';

const LABELS: Record<SettingsSection, string> = {
  profile: 'Profile',
  security: 'Security',
  data: 'Data Controls',
  wallet: 'Wallet',
};

export interface SettingsProps {
  /** The backend: `createHttpApi(…).settings`, or a fake. Read once, on mount. */
  adapter: SettingsAdapter;
  /** The signed-in user. */
  user: User;
  /** The server answered with a fresher user (profile saved, avatar uploaded). */
  onUserChange?: (user: User) => void;
  /** The account was deleted: sign out. */
  onAccountDeleted?: () => void;
  /** The wallet section's content, e.g. `<Wallet adapter headingLevel="h2" />`; without it there is no wallet tab. */
  wallet?: ReactNode;
  /** Signs a server nonce with the wallet, to delete a wallet account. @default undefined */
  signDeletion?: DeletionSigner;
  /** The section shown first. @default 'profile' */
  defaultSection?: SettingsSection;
  /** The page title's level; a dialog names itself instead. @default 'h1' */
  headingLevel?: 'h1' | 'h2' | null;
  /** @default the enclosing Ayah root's theme, else 'light' */
  theme?: Theme;
  className?: string;
}

/**
 * Settings (spec section 2): Profile, Security, Data Controls and the wallet, as tabs. Save Changes
 * saves the profile and shows on Profile only: Security has its own Change Password button, and Data
 * Controls and the wallet have nothing to save.
 */
export function Settings({
  adapter,
  user,
  onUserChange,
  onAccountDeleted,
  wallet,
  signDeletion,
  defaultSection = 'profile',
  headingLevel = 'h1',
  theme,
  className,
}: SettingsProps) {
  const [logics] = useState(() => ({
    profile: profileLogic(adapter),
    password: passwordLogic(adapter),
    archive: archiveLogic(adapter),
    account: accountLogic(adapter),
  }));
  const profile = useActorRef(logics.profile, { input: { user } });
  const password = useActorRef(logics.password);
  const archive = useActorRef(logics.archive);
  const account = useActorRef(logics.account);
  useSettingsNotices(profile, onUserChange);
  useSettingsNotices(password);
  useSettingsNotices(archive);
  useSettingsNotices(account);
  const deleted = useRef(onAccountDeleted);
  useEffect(() => {
    deleted.current = onAccountDeleted;
  });
  useEffect(() => {
    const subscription = account.on('account.deleted', () => deleted.current?.());
    return () => subscription.unsubscribe();
  }, [account]);

  const sections: SettingsSection[] = wallet
    ? ['profile', 'security', 'data', 'wallet']
    : ['profile', 'security', 'data'];
  const [section, setSection] = useState<SettingsSection>(defaultSection);
  const saving = useSelector(profile, (s) => s.hasTag('busy'));
  const id = useId();
  const Heading = headingLevel;
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);

  function onKeyDown(event: KeyboardEvent, index: number) {
    const step =
      event.key === 'ArrowRight' || event.key === 'ArrowDown'
        ? 1
        : event.key === 'ArrowLeft' || event.key === 'ArrowUp'
          ? -1
          : 0;
    if (!step) return;
    event.preventDefault();
    const next = (index + step + sections.length) % sections.length;
    setSection(sections[next]!);
    tabs.current[next]?.focus();
  }

  return (
    <AyahRoot
      theme={theme}
      data-slot="settings"
      className={cn('ay:flex ay:w-full ay:max-w-3xl ay:flex-col ay:gap-4 ay:p-4', className)}
    >
      {Heading && <Heading className={pageTitleClass}>Settings</Heading>}
      <div
        role="tablist"
        aria-label="Settings sections"
        className="ay:flex ay:flex-wrap ay:gap-1 ay:border-b ay:border-border"
      >
        {sections.map((name, index) => (
          <button
            key={name}
            ref={(element) => {
              tabs.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`${id}-tab-${name}`}
            aria-controls={`${id}-panel`}
            aria-selected={section === name}
            tabIndex={section === name ? 0 : -1}
            onKeyDown={(event) => onKeyDown(event, index)}
            onClick={() => setSection(name)}
            className={cn(
              'ay:-mb-px ay:border-b-2 ay:px-3 ay:py-2 ay:text-sm ay:font-medium',
              section === name
                ? 'ay:border-primary ay:text-foreground'
                : 'ay:border-transparent ay:text-muted-foreground ay:hover:text-foreground',
            )}
          >
            {LABELS[name]}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`${id}-panel`}
        aria-labelledby={`${id}-tab-${section}`}
        className="ay:flex ay:flex-col ay:gap-4"
      >
        {section === 'profile' && <ProfileSection actor={profile} user={user} />}
        {section === 'security' && <SecuritySection actor={password} user={user} />}
        {section === 'data' && (
          <>
            <DataControlsSection actor={archive} />
            <AccountSection actor={account} user={user} signDeletion={signDeletion} />
          </>
        )}
        {section === 'wallet' && wallet}
      </div>
      {/* Only the profile has anything to save: Security has its own button, Data Controls and the
          wallet act at once. */}
      {section === 'profile' && (
        <div className="ay:flex ay:justify-end ay:border-t ay:border-border ay:pt-4">
          <Button loading={saving} onClick={() => profile.send({ type: 'profile.save' })}>
            {saving ? 'Saving...' : 'Save Changes'}
          </Button>
        </div>
      )}
    </AyahRoot>
  );
}
