import { PostModal } from '../../../components/post/post-modal.tsx';

/** Spec section 2: the Groups screen's results appear in a modal with OK. */
export function ResultModal({ message, onClose }: { message: string | null; onClose: () => void }) {
  return (
    <PostModal open={message !== null} onClose={onClose}>
      <p role="status">{message}</p>
    </PostModal>
  );
}
