import { useState } from 'react';
import { Link } from 'react-router';
import { QueryState } from '#web/components/ui/query-state';
import { Pagination } from '#web/components/ui/pagination';
import { errorMessage } from '#web/lib/api-client';
import { MY_ORDERS_PAGE_SIZE, useMyOrders } from '../api/get-my-orders';
import { creditsText, formatWhen } from '#web/lib/format';
import { receiptPath } from '#shared/routes';
import { ORDER_STATUS_LABELS } from '../lib/format';

/** My orders, newest first: status, price and the receipt of each ledger entry the order made. */
export function MyOrders() {
  const [page, setPage] = useState(1);
  const orders = useMyOrders(page);
  const pages = Math.max(1, Math.ceil((orders.data?.total ?? 0) / MY_ORDERS_PAGE_SIZE));

  return (
    <div id="orders" className="my-orders">
      <h3>Your orders</h3>
      <QueryState
        data={orders.data?.orders}
        loading="Loading your orders…"
        error={orders.isError ? errorMessage(orders.error, 'Could not load your orders') : null}
        isEmpty={(list) => list.length === 0}
        empty="No orders yet."
      >
        {(list) => (
          <ul className="order-list">
            {list.map((order) => (
              <li key={order._id} className="order-row" data-testid="order-row">
                <div>
                  <strong>{order.itemName}</strong>
                  <span className="muted">
                    {' '}
                    · {creditsText(order.priceCents)} · {formatWhen(order.createdAt)}
                  </span>
                </div>
                <span className={`order-status order-status-${order.status}`} data-testid="order-status">
                  {ORDER_STATUS_LABELS[order.status]}
                </span>
                <span className="order-links">
                  <Link to={receiptPath(order.ledgerEntryId)}>
                    Receipt <span className="visually-hidden">for {order.itemName}</span>
                  </Link>
                  {order.refundLedgerEntryId && (
                    <Link to={receiptPath(order.refundLedgerEntryId)}>
                      Refund receipt <span className="visually-hidden">for {order.itemName}</span>
                    </Link>
                  )}
                </span>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
      {pages > 1 && <Pagination page={page} pages={pages} onPage={setPage} label="Order pages" busy={orders.isFetching} />}
    </div>
  );
}
