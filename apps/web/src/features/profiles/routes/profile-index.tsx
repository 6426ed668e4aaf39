import { Navigate } from 'react-router';

/** /profile itself has no screen of its own in the spec: it is the parent of me, settings and {userid}. */
export default function ProfileIndex() {
  return <Navigate to="/profile/me" replace />;
}
