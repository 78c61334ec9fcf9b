import type { Invocation } from './command-unwrap';

/** systemd targets that power the machine off, restart it, suspend it or stop its services. */
const powerTargets =
  /^(poweroff|reboot|halt|kexec|suspend|hibernate|hybrid-sleep|suspend-then-hibernate|sleep|rescue|emergency|shutdown|exit|soft-reboot)(\.target)?$/u;

function words(invocation: Invocation): string[] {
  return invocation.args.map((arg) => arg.text);
}

function operands(invocation: Invocation): string[] {
  return words(invocation).filter((word) => !word.startsWith('-'));
}

/** `nvme format|sanitize|delete-ns|…`, `cryptsetup luksFormat|erase|…`, `hdparm --security-erase`, `sg_format`, `blkdiscard`. */
function diskWipes(invocation: Invocation): string[] {
  const { program } = invocation;
  const [first] = operands(invocation);
  if (program === 'blkdiscard' || program === 'sg_format' || program === 'sg_sanitize')
    return [`"${program}" erases a disk`];
  if (
    program === 'nvme' &&
    first !== undefined &&
    /^(format|sanitize|delete-ns|detach-ns|write-zeroes|write-uncor|dsm|ns-rescan|reset|subsystem-reset|fw-download|fw-commit)$/u.test(
      first,
    )
  )
    return [`"nvme ${first}" erases or resets an NVMe disk`];
  if (
    program === 'cryptsetup' &&
    first !== undefined &&
    /^(luksFormat|erase|luksErase|reencrypt|luksKillSlot|luksRemoveKey)$/u.test(first)
  )
    return [`"cryptsetup ${first}" destroys encrypted volume keys or data`];
  if (
    program === 'hdparm' &&
    words(invocation).some((word) =>
      /^--(security-erase|security-erase-enhanced|trim-sector-ranges|write-sector|make-bad-sector|dco-restore|user-master|security-set-pass)/u.test(
        word,
      ),
    )
  )
    return ['"hdparm" erases or rewrites disk sectors'];
  if ((program === 'zpool' || program === 'zfs') && (first === 'destroy' || first === 'labelclear'))
    return [`"${program} ${first}" destroys a storage pool or dataset`];
  if (program === 'dmsetup' && (first === 'remove_all' || first === 'wipe_table'))
    return [`"dmsetup ${first}" tears down device-mapper volumes`];
  if (program === 'lvremove' || program === 'vgremove' || program === 'pvremove')
    return [`"${program}" deletes LVM volumes`];
  return [];
}

/** `systemctl isolate poweroff.target`, `systemctl start reboot.target`, `loginctl poweroff`, `kill-user` … */
function powerAndSessions(invocation: Invocation): string[] {
  const { program } = invocation;
  const [verb, ...rest] = operands(invocation);
  if (
    program === 'systemctl' &&
    verb !== undefined &&
    /^(isolate|start|restart|default|emergency|rescue|soft-reboot|kexec|suspend-then-hibernate|hybrid-sleep|exit)$/u.test(
      verb,
    )
  ) {
    if (['isolate', 'start', 'restart'].includes(verb) ? rest.some((unit) => powerTargets.test(unit)) : true)
      return [`"systemctl ${[verb, ...rest].join(' ')}" stops or restarts the machine or its services`];
  }
  if (
    program === 'loginctl' &&
    verb !== undefined &&
    /^(poweroff|reboot|halt|suspend|hibernate|hybrid-sleep|suspend-then-hibernate|kill-user|kill-session|terminate-user|terminate-session|terminate-seat|lock-sessions|flush-devices)$/u.test(
      verb,
    )
  ) {
    return [`"loginctl ${verb}" powers the machine off, suspends it or ends login sessions`];
  }
  if (program === 'rtcwake' || program === 'pm-suspend' || program === 'pm-hibernate' || program === 'zzz')
    return [`"${program}" suspends or powers the machine down`];
  return [];
}

/** `killall5`, `kill -9 -1` (handled beside), `pkill -KILL -u user`, `crontab file` / `crontab -r`. */
function killsAndSchedules(invocation: Invocation): string[] {
  const { program } = invocation;
  const all = words(invocation);
  if (program === 'killall5') return ['"killall5" signals every process on the machine'];
  if (
    (program === 'pkill' || program === 'killall') &&
    all.some((word) => word === '-u' || word.startsWith('--user')) &&
    operands(invocation).length <= 1
  )
    return [`"${program} -u" signals every process of a user`];
  if (program === 'crontab') {
    const files = all.filter((word) => !word.startsWith('-') || word === '-');
    const userOption = all.indexOf('-u');
    const named = userOption === -1 ? files : files.filter((word) => word !== all[userOption + 1]);
    if (all.includes('-r')) return ['"crontab -r" removes every scheduled job of the user'];
    if (named.length > 0)
      return [`"crontab ${named.join(' ')}" replaces every scheduled job of the user, outside any workspace`];
  }
  return [];
}

/**
 * Commands Vigil always refuses beyond the format/shutdown list: they erase disks (`blkdiscard`,
 * `nvme format`, `cryptsetup luksFormat`), power the machine off or end sessions (`systemctl
 * isolate poweroff.target`, `loginctl poweroff`), kill every process (`killall5`) or replace the
 * user's scheduled jobs (`crontab /dev/null`). The sandbox stops most of them already; the
 * refusal says so before anything runs.
 */
export function machineHardline(invocation: Invocation): string[] {
  return [...diskWipes(invocation), ...powerAndSessions(invocation), ...killsAndSchedules(invocation)];
}
