import { api } from '../../../lib/api-client';

/** Spec section 7. The server ends every other session of the account on success (design.md section 4). */
export async function changePassword(input: { currentPassword: string; newPassword: string }): Promise<void> {
  await api.post('/api/users/change-password', input);
}
