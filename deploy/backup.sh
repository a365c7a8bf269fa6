#!/usr/bin/env bash
# Back up Segnapunti's PostgreSQL database: one pg_dump file in custom format per run, named by
# its UTC time, in BACKUP_DIR; the newest BACKUP_KEEP files are kept, older ones deleted.
#
#   DATABASE_URL=postgres://segnapunti@127.0.0.1:5432/segnapunti BACKUP_DIR=/var/backups/segnapunti \
#     deploy/backup.sh
#
# Run it from cron or a systemd timer (deploy/README.md, "Backups"). It prints the file it wrote.
# A dump that fails leaves no partial file behind and exits non-zero, and then nothing is deleted.
set -euo pipefail

: "${DATABASE_URL:?DATABASE_URL must name the database to back up (postgres://...)}"
BACKUP_DIR="${BACKUP_DIR:-/var/backups/segnapunti}"
BACKUP_KEEP="${BACKUP_KEEP:-14}"
case "$BACKUP_KEEP" in
  ''|*[!0-9]*|0) echo "BACKUP_KEEP must be a whole number of at least 1, got '$BACKUP_KEEP'" >&2; exit 2 ;;
esac

# Before the mkdir: a new BACKUP_DIR is created mode 700 and each dump 600, readable by this
# user only (the dumps hold every account's e-mail address and password hash).
umask 077
mkdir -p "$BACKUP_DIR"
stamp="$(date -u +%Y%m%dT%H%M%SZ)"
target="$BACKUP_DIR/segnapunti-$stamp.dump"
partial="$target.partial"
trap 'rm -f "$partial"' EXIT

pg_dump --format=custom --no-owner --no-privileges --file="$partial" "$DATABASE_URL"
# A dump pg_restore cannot read is not a backup.
pg_restore --list "$partial" >/dev/null
mv "$partial" "$target"
echo "$target"

# Rotation: keep the newest BACKUP_KEEP dumps (names sort by time).
ls -1 "$BACKUP_DIR"/segnapunti-*.dump | sort -r | tail -n +"$((BACKUP_KEEP + 1))" | while read -r old; do
  rm -f -- "$old"
done
