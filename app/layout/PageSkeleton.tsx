import { LoadingStatus, Skeleton } from 'ayah-coach';

import { PageHeader } from './AppShell';

/** What a protected page shows while the session loads (spec section 2). */
export function PageSkeleton({
  header = false,
}: {
  /**
   * Holds the place of the phone header a sidebar page will show (SidebarLayout), so that the page
   * does not move down when it arrives (a layout shift).
   */
  header?: boolean;
}) {
  return (
    <>
      {header && (
        <PageHeader className="ay:flex ay:items-center ay:gap-2 ay:border-b ay:border-border ay:px-3 ay:py-2 ay:md:hidden">
          <Skeleton className="ay:size-10" />
          <Skeleton className="ay:h-5 ay:w-24" />
        </PageHeader>
      )}
      <LoadingStatus className="ay:flex ay:h-full ay:flex-1">
        <div className="ay:hidden ay:w-64 ay:flex-col ay:gap-3 ay:border-e ay:border-border ay:p-4 ay:md:flex">
          <Skeleton className="ay:h-9 ay:w-full" />
          <Skeleton className="ay:h-9 ay:w-full" />
          <Skeleton className="ay:h-4 ay:w-24" />
          <Skeleton className="ay:h-8 ay:w-full" />
          <Skeleton className="ay:h-8 ay:w-full" />
        </div>
        <div className="ay:flex ay:flex-1 ay:flex-col ay:items-center ay:justify-center ay:gap-4 ay:p-6">
          <Skeleton className="ay:size-16 ay:rounded-full" />
          <Skeleton className="ay:h-6 ay:w-64" />
          <Skeleton className="ay:h-12 ay:w-full ay:max-w-xl" />
        </div>
      </LoadingStatus>
    </>
  );
}
