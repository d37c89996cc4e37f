/** The tickets feature's public entry: the staff queue the operator console mounts. */
export { StaffQueue } from './components/staff-queue';
/** For the automation rules' form (support-rules feature): who can be assigned, which canned replies exist. */
export { useStaffMembers } from './api/get-staff-members';
export { useCannedReplies } from './api/get-canned-replies';
