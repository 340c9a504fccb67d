import { pageTitleClass } from 'ayah-coach';
import { ClassDashboard, SafetyAlerts } from 'ayah-coach/teacher';
import { useCallback } from 'react';
import { useLocation, useSearch } from 'wouter';

import { useApi } from '../api';
import { SidebarLayout } from '../layout/SidebarLayout';
import { setTeachUnread } from '../layout/teach-unread';

/**
 * /teach: a teacher's class dashboard and the safety alerts. `?class=<id>` opens a class (an LTI
 * launch lands instructors here), `?alert=<id>` an alert (the link in an alert's mail).
 */
export default function Page() {
  const api = useApi();
  const search = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const classId = search.get('class');
  const alertId = search.get('alert');
  const pickClass = useCallback(
    (id: string) => navigate(`/teach?class=${encodeURIComponent(id)}`, { replace: true }),
    [navigate],
  );
  return (
    <SidebarLayout title="Teach">
      {(wide) => (
        <div className="ay:flex ay:min-h-0 ay:flex-1 ay:flex-col ay:gap-8 ay:overflow-y-auto ay:p-4">
          {wide && <h1 className={pageTitleClass}>Teach</h1>}
          <SafetyAlerts adapter={api.teacher} alertId={alertId} onUnreadChange={setTeachUnread} />
          <ClassDashboard adapter={api.teacher} classId={classId} onClassChange={pickClass} />
        </div>
      )}
    </SidebarLayout>
  );
}
