import { useId, useState } from 'react';
import toast from 'react-hot-toast';
import { REFUND_STEP_UP_CENTS } from '#shared/constants';
import { ORDER_STATUSES, type AdminOrder, type OrderStatus } from '#shared/schemas/catalogue';
import { SelectField } from '#web/components/ui/forms';
import { Pagination } from '#web/components/ui/pagination';
import { QueryState } from '#web/components/ui/query-state';
import { Form, StatusButton, useForm } from '#web/components/ui/use-form';
import { StepUpField, useStepUp } from '#web/features/two-factor';
import { errorMessage } from '#web/lib/api-client';
import { useChangeOrder, type ChangeOrderInput } from '../api/change-order';
import { STAFF_ORDERS_PAGE_SIZE, useStaffOrders } from '../api/get-staff-orders';
import { creditsText, formatWhen } from '#web/lib/format';
import { ORDER_STATUS_LABELS } from '../lib/format';

/**
 * The refund's second question, in place. From REFUND_STEP_UP_CENTS up a refund takes the admin's
 * second factor (when two-factor is on): the field sits in the same form, and a refusal about it keeps
 * the question open.
 */
function RefundConfirm({ order, onClose }: { order: AdminOrder; onClose: () => void }) {
  const change = useChangeOrder();
  const stepUp = useStepUp();
  const large = order.priceCents >= REFUND_STEP_UP_CENTS;

  // Every refusal is a toast that closes the question, but one about the second factor (its field says why).
  const form = useForm({
    action: async () => {
      await change.mutateAsync({ id: order._id, action: 'refund', ...(large ? stepUp.fields() : {}) });
      toast.success(`Order for ${order.itemName} refunded`);
      onClose();
    },
    onError: (err) => {
      if (large && stepUp.handleError(err)) return true;
      toast.error(errorMessage(err, 'Could not change the order'));
      onClose();
      return true;
    },
  });

  return (
    <Form form={form} noValidate={false} className="confirm-refund-form">
      <div role="group" aria-label={`Refund ${creditsText(order.priceCents)} to ${order.owner.username}?`} className="confirm-refund">
        {large && <StepUpField stepUp={stepUp} disabled={form.busy} />}
        <StatusButton busy={form.busy} className="btn btn-primary btn-small">
          Confirm refund of {creditsText(order.priceCents)}
        </StatusButton>
        <button type="button" className="btn btn-ghost btn-small" onClick={onClose} disabled={form.busy}>
          Keep
        </button>
      </div>
    </Form>
  );
}

/** Staff: orders by status. Support and admins fulfil paid orders; admins refund (asked twice). */
export function OrdersManager({ isAdmin }: { isAdmin: boolean }) {
  const ids = useId();
  const [status, setStatus] = useState<OrderStatus | ''>('');
  const [page, setPage] = useState(1);
  const orders = useStaffOrders(status, page);
  const change = useChangeOrder();
  const [confirmingRefund, setConfirmingRefund] = useState<string | null>(null);
  const pages = Math.max(1, Math.ceil((orders.data?.total ?? 0) / STAFF_ORDERS_PAGE_SIZE));

  async function run(input: ChangeOrderInput, order: AdminOrder) {
    setConfirmingRefund(null);
    try {
      await change.mutateAsync(input);
      toast.success(input.action === 'fulfil' ? `Order for ${order.itemName} fulfilled` : `Order for ${order.itemName} refunded`);
    } catch (err) {
      toast.error(errorMessage(err, 'Could not change the order'));
    }
  }

  return (
    <section className="admin-panel" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>Orders</h2>
      <div className="admin-search">
        <SelectField
          label="Status"
          value={status}
          onChange={(e) => {
            setStatus(e.target.value as OrderStatus | '');
            setPage(1);
          }}
          options={[{ value: '', label: 'All' }, ...ORDER_STATUSES.map((s) => ({ value: s, label: ORDER_STATUS_LABELS[s] }))]}
        />
      </div>
      <QueryState
        data={orders.data?.orders}
        loading="Loading orders…"
        error={orders.isError ? errorMessage(orders.error, 'Could not load orders') : null}
        isEmpty={(list) => list.length === 0}
        empty="No orders."
      >
        {(list) => (
          <div className="table-wrap rtable-wrap">
            <table className="admin-table rtable" aria-label="Orders">
              <thead>
                <tr>
                  <th scope="col">Bought</th>
                  <th scope="col">User</th>
                  <th scope="col">Item</th>
                  <th scope="col" className="num">
                    Price
                  </th>
                  <th scope="col">Status</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((order) => (
                  <tr key={order._id} data-testid="staff-order-row">
                    <td data-label="Bought">{formatWhen(order.createdAt)}</td>
                    <td data-label="User">{order.owner.username}</td>
                    <td data-label="Item">{order.itemName}</td>
                    <td data-label="Price" className="num">
                      {creditsText(order.priceCents)}
                    </td>
                    <td data-label="Status">
                      <span className={`order-status order-status-${order.status}`}>{ORDER_STATUS_LABELS[order.status]}</span>
                    </td>
                    <td data-label="Actions" className="catalogue-row-actions">
                      {order.status === 'paid' && (
                        <button
                          type="button"
                          className="btn btn-secondary btn-small"
                          disabled={change.isPending}
                          onClick={() => void run({ id: order._id, action: 'fulfil' }, order)}
                        >
                          Fulfil{' '}
                          <span className="visually-hidden">
                            {order.itemName} for {order.owner.username}
                          </span>
                        </button>
                      )}
                      {isAdmin && order.status !== 'refunded' && confirmingRefund !== order._id && (
                        <button
                          type="button"
                          className="btn btn-ghost btn-small"
                          disabled={change.isPending}
                          onClick={() => setConfirmingRefund(order._id)}
                        >
                          Refund{' '}
                          <span className="visually-hidden">
                            {order.itemName} for {order.owner.username}
                          </span>
                        </button>
                      )}
                      {isAdmin && confirmingRefund === order._id && (
                        <RefundConfirm order={order} onClose={() => setConfirmingRefund(null)} />
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryState>
      <Pagination page={page} pages={pages} onPage={setPage} label="Order pages" busy={orders.isFetching} />
    </section>
  );
}
