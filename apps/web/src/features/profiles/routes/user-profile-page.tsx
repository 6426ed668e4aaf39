import { Navigate, useParams } from 'react-router';
import { useAuth } from '../../../lib/auth-store.ts';
import { errorMessage } from '../../../components/post/api/errors.ts';
import { useUserProfile } from '../api/get-user-profile.ts';
import { ProfilePicture } from '../components/profile-picture.tsx';
import { ProfilePosts } from '../components/profile-posts.tsx';
import '../profiles.css';

/** Spec section 2, other profile: username, picture and that user's posts; one's own id goes to /profile/me. */
export default function UserProfilePage() {
  const { userId: viewerId } = useAuth();
  const { userId = '' } = useParams();
  if (userId === viewerId) return <Navigate to="/profile/me" replace />;
  return <UserProfile key={userId} userId={userId} />;
}

function UserProfile({ userId }: { userId: string }) {
  const profile = useUserProfile(userId);
  const user = profile.data;
  return (
    <div className="profile-page">
      <section className="profile-page__head" aria-label="Profile">
        {user ? (
          <>
            <h1>{user.username}</h1>
            <ProfilePicture url={user.profilePicUrl} name={user.username} />
          </>
        ) : profile.isError ? (
          <>
            <p className="profile-page__error" role="alert">
              Error: {errorMessage(profile.error)}
            </p>
            <p className="profile-page__status">Can&apos;t connect to server</p>
          </>
        ) : (
          <p className="profile-page__status" role="status">
            Loading profile...
          </p>
        )}
      </section>
      {user && (
        <section className="profile-page__pictures" aria-labelledby="profile-pictures">
          <h2 id="profile-pictures">Pictures</h2>
          <ProfilePosts userId={userId} own={false} emptyText="No pictures yet." />
        </section>
      )}
    </div>
  );
}
