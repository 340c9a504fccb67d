import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { buttonVariants } from 'ayah-coach';
import { useApi } from '../api';

/**
 * The sidebar's link to /teach, for teachers and safety contacts only (an account becomes one through
 * an LTI launch or a portal's assertion), with the count of alerts they have not opened.
 */
export function TeachLink() {
  const api = useApi();
  const [, navigate] = useLocation();
  const [teaching, setTeaching] = useState<{ unread: number } | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    api.teacher
      .classes({ signal })
      .then(async (list) => {
        if (list.classes.length === 0 && !list.safety_contact) return;
        const { unread } = await api.teacher.unreadAlerts({ signal });
        setTeaching({ unread });
      })
      // Not a teacher's concern if it fails: the link stays away.
      .catch(() => {});
    return () => controller.abort();
  }, [api]);
  if (!teaching) return null;
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
      {teaching.unread > 0 && (
        <span className="ay:ms-auto ay:rounded-full ay:bg-primary ay:px-2 ay:text-xs ay:text-primary-foreground">
          {teaching.unread}
          <span className="ay:sr-only"> unread safety alerts</span>
        </span>
      )}
    </a>
  );
}
