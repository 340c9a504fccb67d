/**
 * The example portal's page script: Ayah's chat and goals board from the BUILT package (dist/, as a
 * portal installs it), signed in through the token exchange. The portal's backend (backend.mjs) signs
 * an assertion for the student it has signed in; `getPortalAssertion` fetches it, and the adapter does
 * the rest (exchange, renewal, a new assertion when the session cannot be renewed).
 */
import 'ayah-coach/styles.css';

import { createHttpApi, Toaster } from 'ayah-coach';
import { Chat } from 'ayah-coach/chat';
import { GoalsBoard } from 'ayah-coach/goals';
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';

const api = createHttpApi({
  baseURL: '',
  getPortalAssertion: async () => {
    const response = await fetch('/embed-demo/assertion', { method: 'POST' });
    if (!response.ok) throw new Error(`The portal could not sign you in (${response.status})`);
    return ((await response.json()) as { assertion: string }).assertion;
  },
});

type Student = { id: string; display_name: string };

function useStudent(): Student | 'failed' | null {
  const [student, setStudent] = useState<Student | 'failed' | null>(null);
  useEffect(() => {
    api.auth.me().then(
      ({ user }) => setStudent(user),
      () => setStudent('failed'),
    );
  }, []);
  return student;
}

function Signing({
  student,
  children,
}: {
  student: Student | 'failed' | null;
  children: React.ReactNode;
}) {
  if (student === 'failed') return <p role="alert">Ayah could not sign you in.</p>;
  if (!student) return <p role="status">Signing you in to Ayah…</p>;
  return children;
}

function ChatWidget() {
  const student = useStudent();
  return (
    <Signing student={student}>
      {student && student !== 'failed' && <Chat adapter={api.chat} user={student} />}
    </Signing>
  );
}

function GoalsWidget() {
  const student = useStudent();
  return (
    <Signing student={student}>
      {student && student !== 'failed' && <GoalsBoard adapter={api.goals} user={student} />}
    </Signing>
  );
}

createRoot(document.getElementById('ayah-chat')!).render(
  <StrictMode>
    <ChatWidget />
    <Toaster />
  </StrictMode>,
);
createRoot(document.getElementById('ayah-goals')!).render(
  <StrictMode>
    <GoalsWidget />
  </StrictMode>,
);
