# Builds the project when its sources changed and prints the runtime classpath of one of its
# modules (test-data for sqlline and the demo, cli for shardset). Sourced by the scripts in
# this folder.
shardset_classpath() {
  local root=$1
  local module=${2:-test-data}
  local stamp="$root/$module/target/launcher.classpath"
  local newer=""
  if [ -f "$stamp" ]; then
    newer=$(find "$root/pom.xml" "$root/calcite-adapter" "$root/test-data" "$root/cli" \
      \( -name '*.java' -o -name 'pom.xml' -o -name '*.sql' \) -newer "$stamp" \
      -not -path '*/target/*' -print -quit)
  fi
  if [ ! -f "$stamp" ] || [ -n "$newer" ]; then
    echo "Building ShardSet (once, and again when sources change)..." >&2
    local log="$root/target-launcher-build.log"
    # The style checks (docs/style.md) are for development builds and CI, not for starting.
    if ! { mvn -B -f "$root/pom.xml" -DskipTests -Dcheckstyle.skip -Dforbiddenapis.skip install \
        && mvn -B -f "$root/$module/pom.xml" dependency:build-classpath \
          -Dmdep.outputFile="$stamp" -Dmdep.includeScope=runtime; } > "$log" 2>&1; then
      cat "$log" >&2
      echo "Build failed; the log above is also in $log" >&2
      exit 1
    fi
    rm -f "$log"
    # build-classpath leaves an unchanged file alone; the stamp must still say "built now".
    touch "$stamp"
  fi
  # This checkout's own classes first: the installed jars in the local Maven repository are
  # shared with every other checkout of the same version, which may overwrite them.
  echo "$root/$module/target/classes:$root/calcite-adapter/target/classes:$(cat "$stamp")"
}
