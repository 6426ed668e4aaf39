declare module 'virtual:messages/*' {
  import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
  const catalogue: Record<string, MessageFormatElement[]>;
  export default catalogue;
}
