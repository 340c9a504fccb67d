import { AyahRoot, Button, pageTitleClass } from 'ayah-coach';
import { Component, type ErrorInfo, type ReactNode } from 'react';

type State = { error: Error | null };

/** The error boundary screen (spec section 2): 'Something went wrong', the message, 'Reload Page'. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Ayah crashed:', error, info.componentStack);
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <AyahRoot
        theme="system"
        className="ay:flex ay:min-h-dvh ay:flex-col ay:items-center ay:justify-center ay:p-6 ay:text-center"
      >
        {/* The page's one main landmark; the alert inside it is what a screen reader says at once. */}
        <main className="ay:flex ay:max-w-md ay:flex-col ay:items-center ay:gap-4">
          <div role="alert" className="ay:flex ay:flex-col ay:items-center ay:gap-4">
            <h1 className={pageTitleClass}>Something went wrong</h1>
            <p className="ay:break-words ay:text-muted-foreground">{error.message}</p>
          </div>
          <Button onClick={() => window.location.reload()}>Reload Page</Button>
        </main>
      </AyahRoot>
    );
  }
}
