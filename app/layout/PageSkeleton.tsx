import { LoadingStatus, Skeleton } from 'ayah-coach';

/** What a protected page shows while the session loads (spec section 2). */
export function PageSkeleton() {
  return (
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
  );
}
