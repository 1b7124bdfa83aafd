# Builds the project when its sources changed and prints the runtime classpath of the
# launchers. Sourced by the scripts in this folder.
shardset_classpath() {
  local root=$1
  local stamp="$root/test-data/target/launcher.classpath"
  local newer=""
  if [ -f "$stamp" ]; then
    newer=$(find "$root/pom.xml" "$root/calcite-adapter" "$root/test-data" \
      \( -name '*.java' -o -name 'pom.xml' -o -name '*.sql' \) -newer "$stamp" \
      -not -path '*/target/*' -print -quit)
  fi
  if [ ! -f "$stamp" ] || [ -n "$newer" ]; then
    echo "Building ShardSet (once, and again when sources change)..." >&2
    local log="$root/target-launcher-build.log"
    if ! { mvn -B -f "$root/pom.xml" -DskipTests install \
        && mvn -B -f "$root/test-data/pom.xml" dependency:build-classpath \
          -Dmdep.outputFile="$stamp" -Dmdep.includeScope=runtime; } > "$log" 2>&1; then
      cat "$log" >&2
      echo "Build failed; the log above is also in $log" >&2
      exit 1
    fi
    rm -f "$log"
  fi
  # This checkout's own adapter classes first: the installed jar in the local Maven repository
  # is shared with every other checkout of the same version, which may overwrite it.
  echo "$root/test-data/target/classes:$root/calcite-adapter/target/classes:$(cat "$stamp")"
}
