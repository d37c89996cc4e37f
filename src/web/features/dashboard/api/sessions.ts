import type { SessionInfo } from '../../../../shared/schemas/auth';
import { api } from '../../../lib/api-client';

/** The signed-in user's active sessions, the current one flagged. */
export async function listSessions(): Promise<SessionInfo[]> {
  const { sessions } = await api.get<{ sessions: SessionInfo[] }>('/api/auth/sessions');
  return sessions;
}

export async function endSession(sessionId: string): Promise<void> {
  await api.delete(`/api/auth/sessions/${encodeURIComponent(sessionId)}`);
}
