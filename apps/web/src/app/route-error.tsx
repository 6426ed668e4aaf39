import { Component, type ReactNode } from 'react';
import { Logo } from '../components/logo.tsx';
import { buttonClass } from '../components/button.tsx';
import { translate } from '../i18n/i18n-store.ts';
import { Message } from '../i18n/message.tsx';
import './status-page.css';

/** The router's error screen (spec section 2): 'Unexpected Application Error!' with the status text or message. */
export function RouteError({ error }: { error: unknown }) {
  const detail = error instanceof Error ? error.message : String(error);
  return (
    <main className="status-page status-page--full" role="alert">
      <div className="status-page__card">
        <Logo size={72} />
        <h1>
          <Message id="routeError.heading" defaultMessage="Unexpected Application Error!" />
        </h1>
        <p className="status-page__detail">{detail}</p>
        {/* A full page load: the router itself may be what failed. */}
        <a className={buttonClass('primary')} href="/">
          <Message id="app.goHome" defaultMessage="Go to the homepage" />
        </a>
      </div>
    </main>
  );
}

/**
 * Catches what a screen throws while rendering (or a screen's code failing to load) and shows RouteError
 * instead of a blank page. The error belongs to the path it happened on: moving elsewhere clears it.
 */
export class RouteErrorBoundary extends Component<
  { path: string; children: ReactNode },
  { error: unknown; errorPath: string | null }
> {
  override state: { error: unknown; errorPath: string | null } = { error: null, errorPath: null };

  static getDerivedStateFromError(error: unknown) {
    return {
      error: error ?? new Error(translate({ id: 'routeError.unknown', defaultMessage: 'Unknown error' })),
    };
  }

  static getDerivedStateFromProps(
    props: { path: string },
    state: { error: unknown; errorPath: string | null },
  ) {
    if (state.error && state.errorPath !== null && state.errorPath !== props.path)
      return { error: null, errorPath: null };
    return null;
  }

  override componentDidCatch() {
    this.setState({ errorPath: this.props.path });
  }

  override render() {
    return this.state.error ? <RouteError error={this.state.error} /> : this.props.children;
  }
}
