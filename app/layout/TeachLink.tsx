import { buttonVariants } from 'ayah-coach';
import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';

import { useApi } from '../api';
import { setTeachUnread, useTeachUnread } from './teach-unread';

/** How often the link asks for the unread count while the tab is shown. */
const REFRESH_MS = 60_000;

/**
 * The sidebar's link to /teach, for teachers and safety contacts only (an account becomes one through
 * an LTI launch or a portal's assertion), with the count of alerts they have not opened.
 */
export function TeachLink() {
  const api = useApi();
  const [, navigate] = useLocation();
  const [teaches, setTeaches] = useState(false);
  const unread = useTeachUnread() ?? 0;
  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    let teacher = false;
    const refresh = () => {
      if (!teacher || document.visibilityState !== 'visible') return;
      api.teacher
        .unreadAlerts({ signal })
        .then(({ unread }) => setTeachUnread(unread))
        // Not a teacher's concern if it fails: the badge keeps its last count.
        .catch(() => {});
    };
    api.teacher
      .classes({ signal })
      .then((list) => {
        teacher = list.classes.length > 0 || !!list.safety_contact;
        setTeaches(teacher);
        if (teacher) refresh();
        else setTeachUnread(null);
      })
      // Not a teacher's concern if it fails: the link stays away.
      .catch(() => {});
    // A new alert is urgent: the badge catches up when the tab comes back, and once a minute.
    const timer = setInterval(refresh, REFRESH_MS);
    document.addEventListener('visibilitychange', refresh);
    return () => {
      controller.abort();
      clearInterval(timer);
      document.removeEventListener('visibilitychange', refresh);
    };
  }, [api]);
  if (!teaches) return null;
  return (
    <a
      href="/teach"
      className={`${buttonVariants({ variant: 'ghost' })} ay:w-full ay:justify-start ay:gap-2`}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        navigate('/teach');
      }}
    >
      Teach
      {unread > 0 && (
        <span className="ay:ms-auto ay:rounded-full ay:bg-primary ay:px-2 ay:text-xs ay:text-primary-foreground">
          {unread}
          <span className="ay:sr-only"> unread safety alerts</span>
        </span>
      )}
    </a>
  );
}
