/** The e-mail channel's delivery task: also named where confirmations and SMTP wake it. */
import { alertTaskType } from "../../alert-job.js";

export const EMAIL_ALERT_TASK = alertTaskType("deliver-email-alert");
