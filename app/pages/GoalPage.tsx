import { pageTitleClass } from 'ayah-coach';
import { useAuth } from 'ayah-coach/auth';
import { GoalsBoard } from 'ayah-coach/goals';

import { useApi } from '../api';
import { SidebarLayout } from '../layout/SidebarLayout';

/** /goal: the weekly goals board beside the app's sidebar (a drawer on small screens). */
export default function Page() {
  const api = useApi();
  const { user } = useAuth();

  return (
    <SidebarLayout title="Goals">
      {(wide) => (
        <div className="ay:min-h-0 ay:flex-1 ay:overflow-y-auto">
          {/* On a wide screen the board's own heading shows; the page's h1 is for screen readers. */}
          {wide && <h1 className={`${pageTitleClass} ay:sr-only`}>Goals</h1>}
          <GoalsBoard
            adapter={api.goals}
            user={user}
            className="ay:mx-auto ay:w-full ay:max-w-5xl ay:p-4 ay:md:p-6"
          />
        </div>
      )}
    </SidebarLayout>
  );
}
