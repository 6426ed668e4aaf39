import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProviders } from './app/providers.tsx';
import { currentLanguage, startLanguage, subscribeLanguage, translate } from './i18n/i18n-store.ts';
import { messageFormatWarmers, warmFormatters } from './i18n/intl-formatters.ts';
import { initialLanguage } from './i18n/languages.ts';
import { registerServiceWorker } from './lib/register-service-worker.ts';
import './styles/global.css';

// The person's language before the first render (a Spanish reader waits for one small chunk, English
// for nothing), so that no English flashes by. A promise rather than a top-level await, which would
// split the entry into many small chunks.
// index.html's own title, for the screens that set none: the product's name in the reader's language.
const nameTheDocument = () => {
  const title = document.head.querySelector('title');
  if (title) title.textContent = translate({ id: 'app.name', defaultMessage: 'Neighbourhood Cats' });
};
subscribeLanguage(nameTheDocument);

void startLanguage(initialLanguage()).then(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppProviders />
    </StrictMode>,
  );
  // While the first screen waits for the session and its data (intl-formatters.ts says why).
  warmFormatters(messageFormatWarmers(currentLanguage()));
});

registerServiceWorker();
