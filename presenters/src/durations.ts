// The human-readable durations Gitea writes for tracked time (modules/util/sec_to_time.go).

/** Gitea's formatTime: "1 hour ", "3 minutes " (a zero value adds nothing). */
const unit = (value: number, name: string) => (value === 1 ? `1 ${name} ` : value > 1 ? `${value} ${name}s ` : '');

/** Gitea's SecToHours: hours and minutes ("1 hour 5 minutes"), the stopwatch's `duration`. */
export function secondsToHours(seconds: number): string {
  return (unit(Math.floor(seconds / 3600), 'hour') + unit(Math.floor(seconds / 60) % 60, 'minute')).trimEnd();
}

/** Gitea's SecToTime: the two largest units ("2 weeks 4 days", "1 minute 6 seconds"), for timeline bodies. */
export function secondsToTime(seconds: number): string {
  let days = Math.floor(seconds / 86400);
  const years = Math.floor(days / 365);
  days -= years * 365;
  const months = Math.floor((days * 12) / 365);
  days -= Math.floor((months * 365) / 12);
  const weeks = Math.floor(days / 7);
  days -= weeks * 7;
  const hours = Math.floor(seconds / 3600) % 24;
  const minutes = Math.floor(seconds / 60) % 60;
  const secs = seconds % 60;
  const text = years > 0 ? unit(years, 'year') + unit(months, 'month')
    : months > 0 ? unit(months, 'month') + unit(weeks, 'week')
      : weeks > 0 ? unit(weeks, 'week') + unit(days, 'day')
        : days > 0 ? unit(days, 'day') + unit(hours, 'hour')
          : hours > 0 ? unit(hours, 'hour') + unit(minutes, 'minute')
            : unit(minutes, 'minute') + unit(secs, 'second');
  return text.trimEnd();
}
