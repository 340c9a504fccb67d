import { Button } from '../ui/button';

/** A list or page that could not be loaded: the sentence, announced as an alert, and 'Try again'. */
export function LoadFailed({ children, onRetry }: { children: string; onRetry: () => void }) {
  return (
    <div role="alert" className="ay:flex ay:items-center ay:gap-3">
      <p>{children}</p>
      <Button variant="outline" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}
