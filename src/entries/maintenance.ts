/**
 * `engram/maintenance`: checking, repairing and copying a database — what `engram doctor` and
 * `engram backup` run. Each loads only the driver of the database it is given. Public API,
 * versioned with the package.
 */
export type { BackupOptions, BackupSummary } from '../engram/backup.js';
export { backupDatabase } from '../engram/backup.js';
export type { DoctorOptions } from '../engram/doctor.js';
export { doctorDatabase } from '../engram/doctor.js';
export type { DoctorCheck, DoctorFinding, DoctorRepair, DoctorReport } from '../store/doctor-report.js';
export { DOCTOR_CHECKS } from '../store/doctor-report.js';
