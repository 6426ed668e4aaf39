import { useAuth } from '../../../lib/auth-store.ts';
import { LoadError } from '../../../components/load-error.tsx';
import { useMyProfile } from '../../../lib/my-profile.ts';
import { PictureUpload } from '../components/picture-upload.tsx';
import { ProfilePicture } from '../components/profile-picture.tsx';
import { ProfilePosts } from '../components/profile-posts.tsx';
import '../profiles.css';
import { LoadingSkeleton, ProfileHeaderSkeleton } from '../../../components/skeleton/skeleton.tsx';

/** Spec section 2, own profile: username, picture (with upload and crop), and 'Pictures'. */
export default function MyProfilePage() {
  const { userId } = useAuth();
  const profile = useMyProfile();
  const me = profile.data;
  return (
    <div className="profile-page">
      <section className="profile-page__head" aria-label="Profile">
        {me ? (
          <>
            <h1>{me.username}</h1>
            <ProfilePicture url={me.profilePicUrl} name={me.username} />
            <PictureUpload hasPicture={Boolean(me.profilePicUrl)} />
          </>
        ) : profile.isError ? (
          <LoadError error={profile.error} onRetry={() => void profile.refetch()} />
        ) : (
          <LoadingSkeleton label="Loading profile...">
            <ProfileHeaderSkeleton />
          </LoadingSkeleton>
        )}
      </section>
      <section className="profile-page__pictures" aria-labelledby="profile-pictures">
        <h2 id="profile-pictures">Pictures</h2>
        {me && (
          <p className="profile-page__privacy">
            {me.exactPublicLocation
              ? 'Pictures with the location on appear on the map at their exact spot.'
              : 'Pictures with the location on appear on the map to within about 500 m; only you see the exact spot.'}
          </p>
        )}
        {userId && <ProfilePosts userId={userId} own emptyText="You have not posted any pictures yet." />}
      </section>
    </div>
  );
}
