import { PASSWORD_PATTERN } from '@cats/contracts';

/** Sign-up's rules for a new password and its confirmation (spec section 5), wherever one is chosen. */
export const newPasswordRules = (values: { password: string; confirm: string }) => ({
  password: PASSWORD_PATTERN.test(values.password),
  confirm: values.confirm !== '' && values.confirm === values.password,
});
