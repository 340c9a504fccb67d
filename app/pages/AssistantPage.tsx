import { pageTitleClass } from 'ayah-coach';
import { useAuth } from 'ayah-coach/auth';
import { Chat } from 'ayah-coach/chat';
import { useState } from 'react';
import { useSearchParams } from 'wouter';

import { useApi } from '../api';
import { SidebarLayout, useWideLayout } from '../layout/SidebarLayout';

/** /assistant and /assistant?sessionId=…: the chat with its sidebar (a drawer on small screens). */
export default function Page() {
  const api = useApi();
  const { user } = useAuth();
  const [params, setParams] = useSearchParams();
  const wide = useWideLayout();
  const sessionId = params.get('sessionId');
  const [title, setTitle] = useState<string | null>(null);

  const openSession = (id: string | null) =>
    setParams(id ? { sessionId: id } : {}, { replace: true });

  return (
    <SidebarLayout
      // Spec, mobile titles: the chat's title, or 'Chat' until it is known; 'Ayah' for a new chat.
      title={title ?? (sessionId ? 'Chat' : 'Ayah')}
      sidebar={{
        activeSessionId: sessionId,
        onNewChat: () => openSession(null),
        onSelectSession: openSession,
        onSessionRemoved: (id) => id === sessionId && openSession(null),
      }}
    >
      {/* On a wide screen the design shows no title: the page's h1 is for screen readers. */}
      {wide && <h1 className={`${pageTitleClass} ay:sr-only`}>Chat with Ayah</h1>}
      <Chat
        adapter={api.chat}
        user={user}
        sessionId={sessionId}
        onSessionChange={(id) => openSession(id)}
        onTitleChange={setTitle}
        // The student came here to write; a portal's embed leaves focus where its reader is.
        focusOnMount
        className="ay:min-h-0 ay:flex-1"
      />
    </SidebarLayout>
  );
}
