import { useEffect } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';

/** What may be a ticket id (they are UUIDs); anything else in the address is not even looked up. */
function isTicketId(value: string): boolean {
  return /^[\w-]{1,64}$/.test(value);
}

/**
 * The open ticket is the page's address, `<list>/<id>` (docs/decisions/0313), for the requester's support
 * page and the staff queue alike: it can be bookmarked, shared, reloaded and left with Back. Links of the
 * older form, `?ticket=<id>` (mails and notices sent before), move to the ticket's address; an address
 * that names no ticket goes back to the list.
 */
export function useTicketAddress(listPath: string, ticketPath: (id: string) => string) {
  const navigate = useNavigate();
  const { ticketId } = useParams();
  const selectedId = ticketId && isTicketId(ticketId) ? ticketId : null;
  const [searchParams] = useSearchParams();
  const linkedTicket = searchParams.get('ticket');
  useEffect(() => {
    if (linkedTicket && isTicketId(linkedTicket)) void navigate(ticketPath(linkedTicket), { replace: true });
    else if (ticketId && !isTicketId(ticketId)) void navigate(listPath, { replace: true });
  }, [linkedTicket, ticketId, navigate, listPath, ticketPath]);
  return {
    selectedId,
    openTicket: (id: string) => void navigate(ticketPath(id)),
    backToList: (options?: { replace?: boolean }) => void navigate(listPath, options),
  };
}
