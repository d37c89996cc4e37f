/** The tickets feature's public entry: the staff queue the operator console mounts. */
export { StaffQueue } from './components/staff-queue';
