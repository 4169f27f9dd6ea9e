import { and, asc, eq, isNull } from 'drizzle-orm';
import type { AppDeps } from '../../context.js';
import { repeatEvery } from '../../timers.js';
import { users, weeklyReports } from '../../store/schema/index.js';
import { sendMail, smtpSettingsFrom, type MailMessage, type SmtpSettings } from './mailer.js';

/** What `serve` says once when no mail server is set up. */
export const SMTP_OFF_LINE = 'weekly reports: kept, not emailed (no SMTP server set: Settings or docs/configuration.md)';
import { reportHtml } from './reportPage.js';
import { reportSubject, reportText } from './reportText.js';
import { publicBaseUrl } from '../common/index.js';
import { generateReport, lastClosedWeekEnd, markEmailed, payloadOf } from './reports.js';

export interface ReportSchedulerOptions {
  /** Base of share URLs; default config.publicBaseUrl, else http://host:port. */
  baseUrl?: string;
  /** How often to look for due reports (default 15 minutes); the first look is immediate. */
  intervalMs?: number;
  /** SMTP settings; default config.smtp (CFP_SMTP_*). null: never email. */
  smtp?: SmtpSettings | null;
  /** Where notices go (default stderr). */
  log?: (line: string) => void;
  /** Sends one message (default: SMTP with `smtp`); tests may replace it. */
  send?: (smtp: SmtpSettings, msg: MailMessage) => Promise<void>;
}

export interface ReportScheduler {
  /** One pass: generate every account's report for the last closed week, email the ones not yet emailed. */
  tick(): Promise<void>;
  stop(): void;
}

/**
 * Generates due weekly reports on a timer (clock from deps, so tests move time by hand).
 * A report is frozen once generated; the email is sent once per report (emailedAt), retried on the
 * next pass if the server refused it.
 */
export function startReportScheduler(deps: AppDeps, opts: ReportSchedulerOptions = {}): ReportScheduler {
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const smtp = opts.smtp === undefined ? smtpSettingsFrom(deps.config.smtp) : opts.smtp;
  const send = opts.send ?? ((s, m) => sendMail(s, m));
  const baseUrl = opts.baseUrl ?? publicBaseUrl(deps.config);
  // One short line (issue 45: a 300-character paragraph stood before `listening` on every first start);
  // the settings to set are on the dashboard's Settings page and in docs/configuration.md.
  if (!smtp) log(SMTP_OFF_LINE);
  let running: Promise<void> | null = null;

  const pass = async () => {
    const weekEnd = lastClosedWeekEnd(deps.clock.now());
    const accounts = deps.store.db.select().from(users).orderBy(asc(users.createdAt)).all();
    for (const user of accounts) {
      try {
        generateReport(deps.store, deps.clock, user.id, weekEnd);
      } catch (err) {
        log(`weekly reports: could not generate the week ending ${weekEnd} for ${user.email}: ${(err as Error).message}`);
      }
    }
    if (!smtp) return;
    // Only the latest closed week is mailed: an old report arriving weeks late is noise.
    const unsent = deps.store.db
      .select()
      .from(weeklyReports)
      .where(and(eq(weeklyReports.weekEnd, weekEnd), isNull(weeklyReports.emailedAt)))
      .all();
    for (const row of unsent) {
      const user = accounts.find((u) => u.id === row.userId);
      if (!user) continue;
      const payload = payloadOf(deps.store, row, baseUrl);
      try {
        // HTML (the report page with its rating chart) and the same report as plain text.
        await send(smtp, { to: user.email, subject: reportSubject(payload), text: reportText(payload, user.displayName), html: reportHtml(payload) });
        markEmailed(deps.store, row.id, deps.clock.now().toISOString());
      } catch (err) {
        log(`weekly reports: emailing the week ending ${weekEnd} to ${user.email} failed: ${(err as Error).message}`);
      }
    }
  };

  const tick = () => {
    // Never two passes at once: a slow SMTP server must not cause double sends.
    running ??= pass().finally(() => {
      running = null;
    });
    return running;
  };
  const timer = repeatEvery(opts.intervalMs ?? deps.config.reportCheckMinutes * 60_000, () => void tick());
  void tick();
  return {
    tick,
    stop: () => timer.stop(),
  };
}
