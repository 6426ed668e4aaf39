import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_USER_ID } from '@cats/contracts';
import { ApiError } from '../../../lib/api-client.ts';
import { authStore } from '../../../lib/auth-store.ts';
import { loadLanguage } from '../../../i18n/i18n-store.ts';
import { groupErrorMessage } from './errors.ts';

afterEach(async () => {
  authStore.clear();
  await loadLanguage('en');
});

describe('groupErrorMessage', () => {
  it("shows a 400's message, and 'Request failed' or 'No Server Response' otherwise", () => {
    expect(groupErrorMessage(new ApiError(400, 'Group name is required'))).toBe('Group name is required');
    expect(groupErrorMessage(new ApiError(500, 'boom'))).toBe('Request failed');
    expect(groupErrorMessage(new ApiError(null, 'offline'))).toBe('No Server Response');
    expect(groupErrorMessage(new Error('odd'))).toBe('Request failed');
  });

  it("recognises the demo account's refusal by its status and the signed-in account, in any language", async () => {
    await loadLanguage('es');
    const refusal = new ApiError(403, 'Función desactivada para el usuario de demostración');
    authStore.set({ accessToken: 't', userId: DEMO_USER_ID });
    expect(groupErrorMessage(refusal)).toBe('Función desactivada para el usuario de demostración');
    authStore.set({ userId: 'someone-else' });
    expect(groupErrorMessage(refusal)).toBe('La solicitud ha fallado');
    expect(groupErrorMessage(new ApiError(null, 'offline'))).toBe('El servidor no responde');
  });
});
