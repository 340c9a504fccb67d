import { Button, createIcon, lazyComponent, MountOnOpen } from 'ayah-coach';
import { useRef, useState } from 'react';

const WalletIcon = createIcon(
  'WalletIcon',
  <>
    <path d="M3 7a2 2 0 0 1 2-2h13v4" />
    <path d="M3 7v11a2 2 0 0 0 2 2h15V9H5a2 2 0 0 1-2-2Z" />
    <path d="M16 14.5h.01" />
  </>,
);

// The modal's code is fetched as the pointer or focus reaches the button, not with the page.
const [WalletPopup, preload] = lazyComponent(() => import('./WalletPopup'), 'WalletPopup');

/** The sidebar's wallet modal (spec: Sidebar and header): the balances, reloaded after every award. */
export function SidebarWallet() {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <>
      <Button
        ref={button}
        variant="ghost"
        className="ay:w-full ay:justify-start ay:gap-2 ay:overflow-hidden"
        aria-haspopup="dialog"
        aria-expanded={open}
        onPointerEnter={preload}
        onFocus={preload}
        onClick={() => setOpen(true)}
      >
        <WalletIcon className="ay:size-4" />
        Wallet
      </Button>
      <MountOnOpen open={open}>
        <WalletPopup
          open={open}
          onOpenChange={(next) => {
            setOpen(next);
            // The button opens the modal without being its trigger: focus comes back to it here.
            if (!next) requestAnimationFrame(() => button.current?.focus());
          }}
        />
      </MountOnOpen>
    </>
  );
}
