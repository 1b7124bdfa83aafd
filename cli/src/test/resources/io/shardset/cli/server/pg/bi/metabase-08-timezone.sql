show timezone;
