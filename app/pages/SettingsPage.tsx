import { Settings } from 'ayah-coach/settings';

import { SidebarLayout } from '../layout/SidebarLayout';
import { useSettingsProps } from '../layout/use-settings-props';

/** /settings: Profile, Security, Data Controls and the wallet (a popup instead, from a phone's menu). */
export default function Page() {
  const settings = useSettingsProps();
  if (!settings) return null;
  return (
    <SidebarLayout title="Settings">
      {/* On phones the header's title is the page's h1. */}
      {(wide) => (
        <div className="ay:flex ay:min-h-0 ay:flex-1 ay:justify-center ay:overflow-y-auto">
          <Settings {...settings} headingLevel={wide ? 'h1' : null} />
        </div>
      )}
    </SidebarLayout>
  );
}
