import { BrowserRouter } from 'react-router';
import { AppRoutes } from './router.tsx';

/**
 * The app's root. The query cache is not here: member screens bring it with their own code
 * (query-provider.tsx), so that the landing page does not load TanStack Query.
 */
export function AppProviders() {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
}
