/**
 * The one notice vocabulary: a toast a machine asks its component to show, as an emitted event. The
 * machine stays free of React and toasts; `showNotice` (src/ui/toast.tsx) is the one bridge.
 */
export type Notice = { type: 'notify'; tone: 'success' | 'error'; message: string };
