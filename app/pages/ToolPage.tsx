import { pageTitleClass } from 'ayah-coach';

import { SidebarLayout } from '../layout/SidebarLayout';

/** /wellness, /nutrition, /exercise: title only (spec section 2; DECISIONS.md), the mobile title on phones. */
export function ToolPage({ title }: { title: string }) {
  return (
    <SidebarLayout title={title}>
      {(wide) =>
        wide && (
          <div className="ay:flex ay:flex-1 ay:flex-col ay:p-4">
            <h1 className={pageTitleClass}>{title}</h1>
          </div>
        )
      }
    </SidebarLayout>
  );
}
export const WellnessPage = () => <ToolPage title="Wellness Tools" />;
export const NutritionPage = () => <ToolPage title="Nutrition Tools" />;
export const ExercisePage = () => <ToolPage title="Exercise Tools" />;
