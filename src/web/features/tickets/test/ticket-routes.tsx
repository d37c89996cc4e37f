import { screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { StaffQueue } from '../components/staff-queue';

/** The address the page is at, for the tests to read with `address()`. */
export function Address() {
  const { pathname, search } = useLocation();
  return <output data-testid="address">{pathname + search}</output>;
}
export const address = () => screen.getByTestId('address').textContent;

/** The staff queue at its route in the staff console: the open ticket is in the address. */
export function StaffQueueRoutes({ at = '/dashboard/staff/tickets' }: { at?: string }) {
  return (
    <MemoryRouter initialEntries={[at]}>
      <Routes>
        <Route
          path="/dashboard/staff/tickets/:ticketId?"
          element={
            <>
              <StaffQueue />
              <Address />
            </>
          }
        />
      </Routes>
    </MemoryRouter>
  );
}
