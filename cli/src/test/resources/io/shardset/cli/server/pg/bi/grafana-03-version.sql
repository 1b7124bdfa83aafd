SELECT current_setting('server_version_num')::int/100 as version
