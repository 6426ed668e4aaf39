import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { ApiError, NO_SERVER_RESPONSE } from '../lib/api-client.ts';
import { LoadError } from './load-error.tsx';

afterEach(cleanup);

describe('LoadError', () => {
  it('says only "Can\'t connect to server" when the server was not reached', () => {
    render(<LoadError error={new ApiError(null, NO_SERVER_RESPONSE)} onRetry={() => {}} />);
    expect(screen.getByRole('alert').textContent).toBe("Can't connect to server");
    expect(screen.queryByText(/^Error: /)).toBeNull();
  });

  it("says only 'Error: {message}' when the server answered with an error", () => {
    render(<LoadError error={new ApiError(500, 'Database is asleep')} onRetry={() => {}} />);
    expect(screen.getByRole('alert').textContent).toBe('Error: Database is asleep');
    expect(screen.queryByText("Can't connect to server")).toBeNull();
  });

  it('asks again on Retry', () => {
    const onRetry = vi.fn();
    render(<LoadError error={new ApiError(404, 'User not found')} onRetry={onRetry} />);
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });
});
